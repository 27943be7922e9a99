import type { SectionStatus } from '../workspace-format/generated-section.js';
import type { RetainInference } from './infer-retain.js';
import type { ReflectStopReason } from './reflect-budget.js';

/**
 * One opinion reflect moved.
 *
 * @group Reflect
 */
export interface OpinionChange {
  /** The opinion memory's id. */
  id: string;
  /** Where it is written. */
  citation: string;
  /** Its text. */
  statement: string;
  /** Confidence before. */
  before: number;
  /** Confidence after. */
  after: number;
  /** Ids of the new memories that supported it. */
  supporting: string[];
  /** Ids of the new memories that contradicted it. */
  contradicting: string[];
  /** True when strong contradiction repeated across independent sources allowed a big drop. */
  bigDrop: boolean;
}

/**
 * What one `reflect()` did.
 *
 * @group Reflect
 */
export interface ReflectReport {
  /** Start of the window reflected over (ISO). */
  since: string;
  /** Each entity page with new facts, and what became of its generated section. */
  entityPages: Array<{
    /** The entity. */
    entity: string;
    /** Workspace-relative path of its page. */
    file: string;
    /** `hand-edited` means a person changed the generated section since: it was left alone. */
    status: SectionStatus;
  }>;
  /** Opinions whose confidence new evidence moved. */
  opinions: OpinionChange[];
  /**
   * `bank/world.md` and `bank/experience.md`: the world facts and the agent's experiences that
   * hold now (typed bullets of the daily logs), in a generated section of each.
   */
  bankPages: Array<{
    /** Workspace-relative path. */
    file: string;
    /** What became of its generated section (`hand-edited`: left alone, with a warning). */
    status: SectionStatus;
  }>;
  /**
   * Daily logs of the window with prose but no `## Retain` section: with a language model,
   * reflect infers their bullets and appends the section (`added`); without one, or when the
   * model fails, they are listed in `skipped` with the reason.
   */
  retainSections: RetainInference;
  /** Proposed additions to `memory.md`, in `proposals/memory.md`, for a person or the agent to accept. */
  coreProposals: {
    /** Workspace-relative path of the proposal file. */
    file: string;
    /** The proposed lines, as they would go into memory.md. */
    lines: string[];
    /** What became of the proposal section. */
    status: SectionStatus;
  };
  /** Sections left alone and model calls that failed, in words. */
  warnings: string[];
  /** Model tokens the run used. */
  tokensUsed: number;
  /**
   * Set when the run reached `maxTokens` or `deadlineMs` and stopped between steps: the pages
   * written so far stay, `pending` lists the entities not reached, the proposals were not
   * rewritten, and the memories reflected over are unchanged, so the next run picks them up.
   */
  stopped?: {
    /** Which bound was reached. */
    reason: ReflectStopReason;
    /** Entities whose pages were not written. */
    pending: string[];
  };
}
