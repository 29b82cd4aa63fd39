/**
 * The one error type of the server. Routes and the domain throw it; the HTTP layer renders it in
 * the vendor's ErrorCollection shape: `{errorMessages: string[], errors: {field: message}}`.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errorMessages: string[];
  readonly errors: Record<string, string>;
  readonly headers: Record<string, string>;

  constructor(status: number, errorMessages: string[], errors: Record<string, string> = {}, headers: Record<string, string> = {}) {
    super(errorMessages[0] ?? Object.values(errors)[0] ?? `HTTP ${status}`);
    this.status = status;
    this.errorMessages = errorMessages;
    this.errors = errors;
    this.headers = headers;
  }

  body(): { errorMessages: string[]; errors: Record<string, string> } {
    return { errorMessages: this.errorMessages, errors: this.errors };
  }
}

export const badRequest = (message: string) => new ApiError(400, [message]);
export const fieldError = (field: string, message: string) => new ApiError(400, [], { [field]: message });
export const forbidden = (message: string) => new ApiError(403, [message]);
export const notFound = (message: string) => new ApiError(404, [message]);
export const conflict = (message: string) => new ApiError(409, [message]);

/** The tracker masks a permission refusal on read as "does not exist" (spec §7). */
export const issueNotFound = () => notFound('Issue does not exist or you do not have permission to see it.');
