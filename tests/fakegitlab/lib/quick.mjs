// GitLab's quick-action extractor (Gitlab::QuickActions::Extractor),
// transcribed: the same alternation, in the same order, with Ruby's
// multi-line mode (`.` matches a newline; `^`/`$` are line anchors) as the
// JavaScript flags `ms`. A command is `/name` at the very start of a line,
// unless an earlier alternative (a ``` block, an inline-code run, an HTML
// block, a >>> block) swallowed that line first. docs/rules/gitlab.md G13.

// The merge-request commands that matter here, and the common ones (the
// real list is longer; any /word not listed is left alone, as GitLab leaves
// an unknown command).
export const COMMANDS = [
  'approve', 'unapprove', 'merge', 'close', 'reopen', 'label', 'labels', 'unlabel', 'remove_label',
  'relabel', 'assign', 'unassign', 'assign_reviewer', 'reviewer', 'request_review', 'unassign_reviewer',
  'remove_reviewer', 'draft', 'wip', 'ready', 'submit_review', 'rebase', 'milestone', 'remove_milestone',
  'title', 'todo', 'done', 'subscribe', 'unsubscribe', 'award', 'react', 'estimate', 'spend', 'lock',
  'unlock', 'target_branch', 'copy_metadata', 'shrug', 'tableflip', 'cc', 'duplicate', 'create_merge_request',
];

function escape(name) {
  return name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const PATTERN = new RegExp(
  [
    '(?<code>^```.+?\\n```$)',
    '(?<inline_code>^.*`\\n*.+?\\n*`$)',
    '(?<html>^<[^>]+?>\\n.+?\\n<\\/[^>]+?>$)',
    '(?<quote>^>>>.+?\\n>>>$)',
    `(?:^\\/(?<cmd>${COMMANDS.map(escape).join('|')})(?:[ ](?<arg>[^\\n]*))?(?:\\s*\\n|$))`,
  ].join('|'),
  'gims',
);

/**
 * Run the extractor over a note body as GitLab's note services do: CRs
 * removed, commands cut out, the result right-stripped. Returns the body
 * GitLab stores and the commands it would execute.
 */
export function extract(body) {
  const commands = [];
  let content = String(body ?? '').replace(/\r/g, '');
  content = content.replace(PATTERN, (...m) => {
    const groups = m.at(-1);
    if (groups.cmd) {
      commands.push({ command: groups.cmd.toLowerCase(), arg: groups.arg ?? null });
      return '';
    }
    return m[0];
  });
  return { content: content.replace(/\s+$/u, ''), commands };
}
