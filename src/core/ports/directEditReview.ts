import type { EditResult, EditReview, ProposedEdit } from "./editReview";
import type { ApprovalDecision } from "./approvals";
import type { FileSystem } from "./fileSystem";

/** No review surface: ask (or auto-approve), then write atomically. The CLI's EditReview. */
export class DirectEditReview implements EditReview {
  constructor(private readonly fs: FileSystem) {}

  async apply(edit: ProposedEdit, decide: () => Promise<ApprovalDecision>): Promise<EditResult> {
    const decision = await decide();
    if (!decision.approved) return { applied: false, feedback: decision.feedback };
    if (edit.proposed === null) await this.fs.delete(edit.path);
    else await this.fs.writeFile(edit.path, edit.proposed);
    return { applied: true, content: edit.proposed, userEdited: false };
  }
}
