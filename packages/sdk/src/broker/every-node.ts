import type { Context, ServiceBroker } from 'moleculer';
import type { ActionName, ActionParams } from '../actions.ts';

/**
 * Calls an action on every node that runs its service and waits for all of
 * them: for changes that must hold everywhere before the caller is answered
 * (an event would arrive a moment later on other nodes). A node that does
 * not answer is logged and skipped; the event that follows still reaches it.
 */
export async function callOnEveryNode<A extends ActionName>(
  caller: Context | ServiceBroker,
  action: A,
  params: ActionParams<A>,
): Promise<void> {
  const broker = 'broker' in caller ? caller.broker : caller;
  const service = action.slice(0, action.indexOf('.'));
  const nodeIds = new Set(
    (
      broker.registry.getServiceList({ onlyAvailable: true, skipInternal: true }) as Array<{
        name: string;
        nodeID: string;
      }>
    )
      .filter((s) => s.name === service)
      .map((s) => s.nodeID),
  );
  await Promise.all(
    [...nodeIds].map((nodeID) =>
      caller.call(action, params, { nodeID }).catch((err: unknown) => {
        broker.logger.warn(`${action} did not answer on node ${nodeID}`, err);
      }),
    ),
  );
}
