import type { EditResult, EditReview, ProposedEdit } from "../ports/editReview";
import type { ApprovalDecision } from "../ports/approvals";
import type { FileSystem } from "../ports/fileSystem";
import { encodeText } from "../files/textEncoding";
import { writeGuarded } from "../files/guardedWrite";

/** No review surface: ask (or auto-approve), then write atomically. The CLI's EditReview. */
export class DirectEditReview implements EditReview {
  constructor(private readonly fs: FileSystem) {}

  async apply(edit: ProposedEdit, decide: () => Promise<ApprovalDecision>): Promise<EditResult> {
    const decision = await decide();
    if (!decision.approved) return { applied: false, feedback: decision.feedback };
    const written = await writeGuarded(this.fs, edit, edit.proposed, (content) => (content === null ? this.fs.delete(edit.path) : this.fs.writeFile(edit.path, encodeText(content, edit.encoding))));
    if (!written.written) return { applied: false, notWritten: written.reason };
    return { applied: true, content: written.content, userEdited: false, ...(written.remadeFrom !== undefined && { remadeFrom: written.remadeFrom }) };
  }
}
