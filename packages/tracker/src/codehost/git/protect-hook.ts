/**
 * Branch protection in git (ARCHITECTURE §21): receive-pack runs this pre-receive hook with the
 * pusher's rules in JST_PROTECTED (one line per protected branch: ref, force pushes allowed,
 * deletions allowed, why a direct update is refused — empty when it is not), and it refuses in
 * GitHub's words (GH006). git prints its lines as `remote: …` and rejects every ref of the push
 * (receive-pack's pre-receive is all or nothing). Creating a branch a rule names is allowed, as on
 * GitHub without "Restrict pushes that create matching branches". Merges made by the code host itself are atomic
 * ref updates, not pushes, and never meet it.
 */

/** One protected branch, as it binds one pusher (domain/protection.ts RefRule). */
export interface HookRule {
  ref: string;
  allowForcePushes: boolean;
  allowDeletions: boolean;
  refuseUpdate: string | null;
}

/** The pre-receive hook (./push-hook.ts puts it in the server's hooks folder). */
export const PRE_RECEIVE = `#!/bin/sh
if [ -z "$JST_PROTECTED" ]; then cat >/dev/null; exit 0; fi
refuse() {
  echo "error: GH006: Protected branch update failed for $1." >&2
  echo "error: $2" >&2
  status=1
}
status=0
while read -r old new ref; do
  rule=$(printf '%s\\n' "$JST_PROTECTED" | while IFS='	' read -r r force delete why; do
    if [ "$r" = "$ref" ]; then printf '%s\\t%s\\t%s\\n' "$force" "$delete" "$why"; fi
  done)
  [ -n "$rule" ] || continue
  force=$(printf '%s' "$rule" | cut -f1)
  delete=$(printf '%s' "$rule" | cut -f2)
  why=$(printf '%s' "$rule" | cut -f3-)
  case "$new" in
    *[!0]*) ;;
    *)
      [ "$delete" = 1 ] || refuse "$ref" "Cannot delete this branch"
      continue
      ;;
  esac
  # Creating a branch a rule names is allowed, as on GitHub (unless it restricts creations).
  case "$old" in
    *[!0]*) ;;
    *) continue ;;
  esac
  if [ "$force" != 1 ] && ! git merge-base --is-ancestor "$old" "$new" 2>/dev/null; then
    refuse "$ref" "Cannot force-push to this branch"
    continue
  fi
  [ -z "$why" ] || refuse "$ref" "$why"
done
exit $status
`;

/** The hook's environment for a push by a pusher these rules bind; empty when no branch is protected. */
export function protectEnv(rules: HookRule[]): Record<string, string> {
  const lines = rules
    .filter((r) => !/[\t\n]/.test(r.ref))
    .map((r) => [r.ref, r.allowForcePushes ? '1' : '0', r.allowDeletions ? '1' : '0', (r.refuseUpdate ?? '').replace(/[\t\n]/g, ' ')].join('\t'));
  return lines.length === 0 ? {} : { JST_PROTECTED: lines.join('\n') };
}
