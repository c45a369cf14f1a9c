// Where the members of many groups connect, so that each group lives on one
// or two gateways (as a load balancer that hashes by group, or a region,
// would place them), and which events each gateway then needs.

export interface GroupPlacement {
  /** The gateways (indexes) its members connect to: the home gateway first. */
  gateways: number[];
  /** Per member (in the group's member order), the gateway it connects to; member 0 (the owner) is at home. */
  memberGateways: number[];
}

/**
 * Group g's home is gateway g mod `gatewayCount`; a share `split` of each
 * gateway's groups (spread evenly over them) also has every other member on
 * the next gateway, so every gateway carries the same load.
 */
export function spreadGroups(
  groupCount: number,
  gatewayCount: number,
  membersPerGroup: number,
  split: number,
): GroupPlacement[] {
  return Array.from({ length: groupCount }, (_, g) => {
    const home = g % gatewayCount;
    // The group's place among its home's groups.
    const slot = Math.floor(g / gatewayCount);
    const isSplit =
      gatewayCount > 1 && membersPerGroup > 1 && Math.floor((slot + 1) * split) > Math.floor(slot * split);
    const next = (home + 1) % gatewayCount;
    const memberGateways = Array.from({ length: membersPerGroup }, (_, m) => (isSplit && m % 2 === 1 ? next : home));
    return { gateways: isSplit ? [home, next] : [home], memberGateways };
  });
}

/** Per gateway, the room events its sockets need: one per message of every group with a member on it. */
export function eventsNeeded(placements: readonly GroupPlacement[], messages: readonly number[], gatewayCount: number) {
  const needed = Array.from({ length: gatewayCount }, () => 0);
  placements.forEach((p, g) => {
    for (const gateway of p.gateways) needed[gateway]! += messages[g] ?? 0;
  });
  return needed;
}
