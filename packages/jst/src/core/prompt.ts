/** The shape of a question to the person, apart from who asks it (a terminal, or `jst mcp`'s elicitation). */

/** What a question accepts: a default taken by a bare Enter, and a check that names what is wrong. */
export interface AskOptions {
  /** Shown as `[default]`; a bare Enter takes it. */
  default?: string | undefined;
  /** null = accepted; otherwise why not (the question is asked again). */
  check?: ((answer: string) => string | null) | undefined;
}

export interface YesNoOptions {
  command?: (() => string) | undefined;
}

/**
 * How a command asks the person (docs/style.md: injected, never global). `interactive` = a person sits
 * at a terminal, so the clarify loop and the final confirmation run; `ask`, `yesNo` and `pause` may
 * still be answered when it is false (`jst mcp` asks through MCP elicitation) or throw `needsAnswer`.
 */
export interface Prompt {
  readonly interactive: boolean;
  ask(question: string, hint?: string, o?: AskOptions): Promise<string>;
  askList(question: string, hint?: string): Promise<string[]>;
  /**
   * `o.command`: the yes is the person's alone (the hotfix yes, the yes before Done); where nobody can
   * be asked, the refusal is the exact `jst …` command the person runs to say it (ARCHITECTURE §13).
   */
  yesNo(question: string, hint?: string, o?: YesNoOptions): Promise<boolean>;
  /** "Do this, then press Enter": resolves when the person says it is done. */
  pause(message: string, hint?: string): Promise<void>;
  close(): void;
}
