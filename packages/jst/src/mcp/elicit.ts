import { JstError } from '../config/index.js';
import { EXIT } from '../core/errors.js';
import type { AskOptions, Prompt, YesNoOptions } from '../core/terminal-prompt.js';

/** The slice of the SDK's server that asks the client's person (MCP elicitation, form mode). */
export interface Elicitor {
  /** The client declared the `elicitation` capability at initialize. */
  canElicit(): boolean;
  elicit(message: string, requestedSchema: FormSchema): Promise<{ action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> | undefined }>;
}

export interface FormSchema {
  type: 'object';
  properties: Record<string, { type: 'string'; title: string; description?: string } | { type: 'boolean'; title: string; description?: string }>;
  required: string[];
}

/**
 * A command's questions, put to the person behind the MCP client (ARCHITECTURE §13): through
 * elicitation when the client declared it, else a refusal that carries the question, so an agent
 * never answers for the person. A declined or cancelled question stops the command there, before
 * it changes anything that depends on the answer. Never `interactive`: the terminal-only parts (the
 * clarify loop, the final "Create …?") behave as with a plan file.
 */
export class ElicitPrompt implements Prompt {
  readonly interactive = false;

  constructor(private readonly to: Elicitor) {}

  async ask(question: string, hint?: string, o: AskOptions = {}): Promise<string> {
    const offered = o.default === undefined ? '' : ` (leave empty for ${o.default})`;
    const given = (await this.form(`${question}${offered}`, hint, { answer: { type: 'string', title: 'Answer' } })).answer;
    // The client's answer is checked, not trusted: anything but a string is no answer.
    const answer = (typeof given === 'string' ? given : '').trim() || o.default || '';
    // The command's own check, as on a terminal: a refused answer stops here rather than looping on the person.
    const problem = answer === '' ? 'an answer is needed' : (o.check?.(answer) ?? null);
    if (problem !== null)
      throw new JstError({
        code: 'QUESTION',
        exitCode: EXIT.question,
        problem: `the answer to "${question}" was not accepted: ${problem}`,
        ...(hint ? { hint } : {}),
      });
    return answer;
  }

  async pause(message: string, hint?: string): Promise<void> {
    await this.form(message, hint, { done: { type: 'boolean', title: 'Done', description: 'Tick once it is done' } });
  }

  async askList(question: string, hint?: string): Promise<string[]> {
    const answer = await this.form(question, hint, { answer: { type: 'string', title: 'One per line' } });
    return (typeof answer.answer === 'string' ? answer.answer : '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
  }

  async yesNo(question: string, hint?: string, o: YesNoOptions = {}): Promise<boolean> {
    if (o.command && !this.to.canElicit()) throw personDecides(question, o.command());
    const answer = await this.form(question, hint, {
      yes: { type: 'boolean', title: 'Yes', description: 'Tick to answer yes; leave it unticked to answer no' },
    });
    return answer.yes === true;
  }

  close(): void {
    /* nothing held between questions */
  }

  private async form(question: string, hint: string | undefined, properties: FormSchema['properties']): Promise<Record<string, unknown>> {
    if (!this.to.canElicit()) throw cannotAsk(question, hint);
    const r = await this.to.elicit(question, { type: 'object', properties, required: Object.keys(properties) });
    if (r.action !== 'accept') {
      throw new JstError({
        code: 'DECLINED',
        exitCode: EXIT.failed,
        problem: `the person ${r.action === 'decline' ? 'declined' : 'cancelled'} the question "${question}", so the command stopped there and changed nothing that depends on the answer`,
        ...(hint ? { hint } : {}),
      });
    }
    return r.content ?? {};
  }
}

/** The refusal that carries the question when the client cannot ask the person. */
export function cannotAsk(question: string, hint?: string): JstError & { question: string } {
  const e = new JstError({
    code: 'QUESTION',
    exitCode: EXIT.question,
    problem: `a question needs the person's answer, and this MCP client cannot ask it (no elicitation capability): ${question}`,
    hint: `Put the question to the person yourself; never answer it for them. Then: ${hint ?? 'call the tool again once they have answered'}`,
  });
  return Object.assign(e, { question });
}

/**
 * A yes that is the person's alone (the hotfix yes, the yes before Done) where the client cannot ask
 * them: nothing changed, and the text is the exact `jst …` command the person runs to say it.
 */
export function personDecides(question: string, command: string): JstError & { question: string; command: string } {
  const e = new JstError({
    code: 'QUESTION',
    exitCode: EXIT.question,
    problem: `"${question}" is the person's decision, and this MCP client cannot ask them (no elicitation); nothing was changed`,
    hint: `Show the person this command and never answer it for them: if they agree, they run it in a terminal themselves: ${command}`,
  });
  return Object.assign(e, { question, command });
}
