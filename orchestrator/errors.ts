// Errors of the orchestrator: a stable code, a message naming the option or field, the value and the fix.

import { EXIT_CODES, HedgebenchError } from '../library/index.ts';

/** Base class of every orchestrator error; `code` is stable and safe to match on. */
class OrchestratorError extends HedgebenchError {}

/** The results folder cannot be created or written, or its disk lacks the space the run needs. */
export class ResultsFolderError extends OrchestratorError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_RESULTS_FOLDER', message, options);
  }
}

/** A command-line option is missing, malformed or contradicts another one. */
export class RunOptionError extends OrchestratorError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_RUN_OPTION', message, options);
  }
}

/** `--resume` names a folder that is not a resumable run (no manifest, a bad one, or a run still going). */
export class ResumeError extends OrchestratorError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_RESUME', message, options);
  }
}

/** An agent (redis-server, target server) did not start or did not become healthy in time. */
export class AgentStartError extends OrchestratorError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_AGENT_START', message, options);
  }
}

/** The target server refused or failed a control request (/config, /reset, /stats). */
export class TargetControlError extends OrchestratorError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('HB_TARGET_CONTROL', message, options);
  }
}

/** A command line yargs could not accept (unknown option, missing value). Exit code 2. */
export class UsageError extends OrchestratorError {
  constructor(message: string) {
    super('HB_USAGE', message, { exitCode: EXIT_CODES.usage });
  }
}
