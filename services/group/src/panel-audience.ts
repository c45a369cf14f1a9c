import { announce, EVENTS } from '@im/sdk';
import type { Context } from 'moleculer';
import { standingOf } from './access.ts';
import type { GroupDoc, MemberDoc, PanelDoc } from './models.ts';
import type { HandlerModels } from './store/reads.ts';
import { audienceOf, maySee, NOBODY, panelAudience, type Standing } from './permissions.ts';
import { toPanel } from './views.ts';

/**
 * Tells gateways who gains and who loses a panel when its audience changed
 * (made private or public, allow lists edited, or a private panel made:
 * `before` null): every member is compared before and after. Called after
 * the write; a change that moves nobody sends nothing.
 */
export async function announcePanelAudience(
  ctx: Context,
  models: HandlerModels,
  groupId: string,
  before: PanelDoc | null,
  after: PanelDoc,
): Promise<void> {
  const was = before ? panelAudience(before) : NOBODY;
  const now = panelAudience(after);
  if (!was && !now) return;
  const members = await models.members
    .find({ groupId }, { userId: 1, role: 1, roleIds: 1 })
    .lean<Array<Pick<MemberDoc, 'userId' | 'role' | 'roleIds'>>>();
  const granted: string[] = [];
  const revoked: string[] = [];
  for (const m of members) {
    const userId = m.userId.toHexString();
    const standing = standingOf(m);
    const saw = before ? maySee(standing, userId, was) : false;
    const sees = maySee(standing, userId, now);
    if (saw && !sees) revoked.push(userId);
    else if (!saw && sees) granted.push(userId);
  }
  if (granted.length > 0 || revoked.length > 0)
    announce(ctx, EVENTS.panelAccess, {
      groupId,
      panel: toPanel(after),
      grantedUserIds: granted,
      revokedUserIds: revoked,
    });
}

/**
 * Tells gateways which private panels one member gains or loses when their
 * standing changed (a role given or taken, made admin or member again).
 */
export function announceMemberAudience(
  ctx: Context,
  group: Pick<GroupDoc, '_id' | 'panels'>,
  userId: string,
  before: Standing,
  after: Standing,
): void {
  const groupId = group._id.toHexString();
  for (const panel of group.panels) {
    if (!panel.private) continue;
    const audience = audienceOf(panel);
    const [saw, sees] = [maySee(before, userId, audience), maySee(after, userId, audience)];
    if (saw === sees) continue;
    announce(ctx, EVENTS.panelAccess, {
      groupId,
      panel: toPanel(panel),
      grantedUserIds: sees ? [userId] : [],
      revokedUserIds: saw ? [userId] : [],
    });
  }
}
