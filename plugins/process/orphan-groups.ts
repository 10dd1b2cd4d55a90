// Groups that outlived their leader: a dev server's leader (`npm run dev`) may exit and leave
// its workers running in its process group. The gateway records their pids and start times;
// after a restart (even one after SIGKILL) it finds them again and applies onShutdown.
//
// A group id is the leader's pid, which the kernel may hand out again once the group is
// empty. A group is taken for ours only while one recorded member (same pid, same start
// time, same boot) is still in it: then the group never emptied, so its id was never reused.
import { groupMembers, readBootId, signalGroup, waitFor, type ProcessIdentity } from './process-group.js';
import type { MemberRecord } from './process-store.js';

export const toRecords = (members: readonly ProcessIdentity[]): MemberRecord[] => members.map((m) => [m.pid, m.startTicks]);

/** The members of group `pgid` now, if one of `recorded` is still among them; else none. */
export function provenMembers(pgid: number, recorded: readonly MemberRecord[], bootId: string | null): ProcessIdentity[] {
  if (bootId !== null && bootId !== readBootId()) return [];
  const members = groupMembers(pgid);
  const proven = members.some((m) => recorded.some(([pid, ticks]) => pid === m.pid && ticks !== null && ticks === m.startTicks));
  return proven ? members : [];
}

/**
 * SIGTERM to the group, `graceMs` for it to go, then SIGKILL — each signal only after the
 * group is proven ours again, since it may have emptied (and its id been reused) meanwhile.
 * Resolves true once no member is left.
 */
export async function endGroup(pgid: number, recorded: readonly MemberRecord[], bootId: string | null, graceMs: number): Promise<boolean> {
  let known = [...recorded];
  const stillOurs = () => {
    const members = provenMembers(pgid, known, bootId);
    known = [...known, ...toRecords(members)];
    return members.length > 0;
  };
  if (!stillOurs()) return true;
  signalGroup(pgid, 'SIGTERM');
  if (await waitFor(() => !stillOurs(), graceMs)) return true;
  signalGroup(pgid, 'SIGKILL');
  return waitFor(() => !stillOurs(), 3000);
}
