/**
 * The code host needs a repository folder that every process shares (`--repos`). Its own module, so
 * that the command line can name the error without loading the server (cli.ts loads server.js only to
 * serve).
 */
export class ReposRequiredError extends Error {
  constructor() {
    super(
      'the seed has a "codehost" section, but with --database-url the code host needs --repos DIR (a folder every jst-tracker process over this database shares). Add --repos DIR, or remove "codehost" from the seed.',
    );
  }
}
