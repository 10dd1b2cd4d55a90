import { createTwoFilesPatch } from 'diff';
import { GatewayError } from '@mcp-gateway/core';

export interface LineSelection {
  start_line?: number;
  end_line?: number;
  head?: number;
  tail?: number;
}

/** The selected lines of `text` (1-based, inclusive) and the file's line count. */
export function selectLines(text: string, selection: LineSelection): { content: string; totalLines: number; partial: boolean } {
  const lines = text.split('\n');
  // A final newline ends the last line rather than starting an empty one.
  const totalLines = text.endsWith('\n') ? lines.length - 1 : lines.length;
  const { start_line, end_line, head, tail } = selection;
  if ([start_line, end_line, head, tail].every((v) => v === undefined)) return { content: text, totalLines, partial: false };
  if ((head !== undefined || tail !== undefined) && (start_line !== undefined || end_line !== undefined || (head !== undefined && tail !== undefined))) {
    throw new GatewayError('INVALID_ARGUMENTS', 'Give either start_line/end_line, or head, or tail — not several.');
  }
  let from = 0;
  let to = totalLines;
  if (head !== undefined) to = Math.min(head, totalLines);
  else if (tail !== undefined) from = Math.max(0, totalLines - tail);
  else {
    from = Math.max(0, (start_line ?? 1) - 1);
    to = Math.min(end_line ?? totalLines, totalLines);
  }
  return { content: lines.slice(from, Math.max(from, to)).join('\n'), totalLines, partial: true };
}

export interface Edit {
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

/** Applies edits in order to `text`; throws EDIT_EMPTY or EDIT_NO_MATCH naming the edit. */
export function applyEdits(text: string, edits: readonly Edit[], path: string): { text: string; replacements: number } {
  let replacements = 0;
  edits.forEach((edit, index) => {
    const which = edits.length > 1 ? ` (edit ${index + 1} of ${edits.length})` : '';
    if (edit.old_string === '') throw new GatewayError('EDIT_EMPTY', `old_string is empty${which}; give the exact text to replace.`);
    const at = text.indexOf(edit.old_string);
    if (at === -1) {
      throw new GatewayError('EDIT_NO_MATCH', `old_string${which} does not occur in "${path}"; read the file again and copy the text exactly, whitespace included.`, {
        details: { edit: index },
      });
    }
    if (edit.replace_all) {
      const parts = text.split(edit.old_string);
      replacements += parts.length - 1;
      text = parts.join(edit.new_string);
    } else {
      replacements += 1;
      text = text.slice(0, at) + edit.new_string + text.slice(at + edit.old_string.length);
    }
  });
  return { text, replacements };
}

export function unifiedDiff(path: string, before: string, after: string): string {
  return createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 3 });
}
