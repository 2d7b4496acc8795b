// The inspector page's logic without a browser: what @statelyai/inspect sends for the fixture app
// (collected by its own createInspector, no socket) read into an InspectLog — the actors by parent,
// each one's snapshots, the events with their source — and each definition made a machine again in the
// page whose statechart has the same states and transitions as the app's own machine.
import { createInspector } from '@statelyai/inspect';
import type { StatelyInspectionEvent } from '@statelyai/inspect';
import { describe, expect, it } from 'vitest';
import { createActor, waitFor } from 'xstate';
import { definitionMachine, dottedValue, statePaths } from '../../web/inspect/actor-machine';
import { InspectLog, MAX_EVENTS } from '../../web/inspect/inspect-log';
import { machineGraph } from '../../web/statechart/graph';
import { orderMachine, paymentMachine } from '../fixtures/inspect-app/machines';

/** The fixture app run to its end, its inspection messages as the relay would carry them (JSON text). */
async function inspectedRun(): Promise<string[]> {
  const sent: StatelyInspectionEvent[] = [];
  const inspector = createInspector({ send: (e) => sent.push(e) });
  const order = createActor(orderMachine, { inspect: inspector.inspect }).start();
  for (const e of [{ type: 'ADD', item: 'book' }, { type: 'CHECKOUT' }, { type: 'PAY' }, { type: 'APPROVE' }] as const) order.send(e);
  await waitFor(order, (s) => s.status === 'done');
  // The inspector converts each event on a later tick (setTimeout 0 in Node): wait until the order's last snapshot is out.
  await new Promise<void>((ok) => {
    const check = () =>
      sent.some((m) => m.type === '@xstate.snapshot' && m.snapshot.status === 'done' && m.sessionId === order.sessionId)
        ? ok()
        : setTimeout(check, 0);
    check();
  });
  return sent.map((m) => JSON.stringify(m));
}

/** A graph as comparable sets: node ids with their parent, edges as source → target on event. */
const shape = (g: ReturnType<typeof machineGraph>) => ({
  nodes: g.nodes.map((n) => `${n.id} < ${n.parent ?? ''}${n.initial ? ' (initial)' : ''}`).sort(),
  edges: g.edges.map((e) => `${e.source} → ${e.target} on ${e.label}`).sort(),
});

describe("the inspector page's log", () => {
  it("reads the fixture app: actors by parent, snapshots in order, events with their source; each definition draws the app's own machine", async () => {
    const log = new InspectLog();
    for (const text of await inspectedRun()) log.addText(text);
    const byName = new Map([...log.actors.values()].map((a) => [a.name, a]));
    const order = byName.get('order');
    const payment = byName.get('payment');
    const receipt = byName.get('receipt');
    expect(order?.parentId).toBeUndefined();
    expect(payment?.parentId).toBe(order?.sessionId);
    expect(receipt?.parentId).toBe(order?.sessionId);
    expect(
      log
        .tree()
        .get(undefined)
        ?.map((a) => a.name),
    ).toEqual(['order']);
    expect(
      log
        .tree()
        .get(order?.sessionId)
        ?.map((a) => a.name),
    ).toEqual(['payment', 'receipt']);

    // Snapshots in order, each with the event that led to it (the registration's stand-in replaced by the actor's first); the promise actor's output.
    expect(order?.snapshots.map((s) => `${dottedValue(s.value)} after ${s.eventType || '—'}`)).toEqual([
      'shopping after xstate.init',
      'shopping after ADD',
      'checkout after CHECKOUT',
      'checkout after PAY',
      'checkout after APPROVE',
      'receipt after xstate.done.actor.payment',
      'done after xstate.done.actor.receipt',
    ]);
    expect(payment?.snapshots.map((s) => dottedValue(s.value))).toEqual(['idle', 'authorizing', 'paid']);
    expect(receipt?.snapshots.at(-1)).toMatchObject({ status: 'done', output: 'receipt for 1 item(s)' });
    expect(log.events.find((e) => e.type === 'PAY' && e.targetId === payment?.sessionId)?.sourceId).toBe(order?.sessionId);

    // The definitions as sent make machines whose charts are the app's own; a promise actor has none.
    for (const [actor, machine] of [
      [order, orderMachine],
      [payment, paymentMachine],
    ] as const) {
      const made = definitionMachine(actor?.definition);
      if (made.kind !== 'machine') throw new Error(`${actor?.name}: ${JSON.stringify(made)}`);
      expect(shape(machineGraph(made.machine))).toEqual(shape(machineGraph(machine)));
    }
    expect(definitionMachine(receipt?.definition).kind).toBe('none');
  });

  it("takes the relay's notice, counts what is not an inspection event, and keeps at most MAX_EVENTS events", () => {
    const log = new InspectLog();
    log.addText(JSON.stringify({ type: '@loopscope.history', received: 30, dropped: 12, maxEvents: 18, maxBytes: 1 }));
    log.addText('not json');
    log.add({ type: '@xstate.unknown', sessionId: 'x:9' });
    // The notice says the relay holds 18 (one came since: the unknown one): a batch counts down what is still to come.
    expect(log.historyLeft).toBe(17);
    log.addText(
      JSON.stringify({
        type: '@loopscope.batch',
        messages: [
          { type: '@xstate.event', sessionId: 'h:1', event: { type: 'A' } },
          { type: '@xstate.event', sessionId: 'h:1', event: { type: 'B' } },
        ],
      }),
    );
    expect(log.historyLeft).toBe(15);
    expect(log.events.map((e) => e.type)).toEqual(['A', 'B']);
    log.events.length = 0;
    expect({ dropped: log.relayDropped, max: log.relayMaxEvents, unreadable: log.unreadable }).toEqual({
      dropped: 12,
      max: 18,
      unreadable: 2,
    });
    for (let i = 0; i < MAX_EVENTS + 3; i++)
      log.add({ type: '@xstate.event', sessionId: 'x:0', event: { type: `E${i}` }, createdAt: String(i) });
    expect(log.events).toHaveLength(MAX_EVENTS);
    expect(log.droppedEvents).toBe(3);
    expect(log.events[0]?.type).toBe('E3');
    // An actor first seen in an event (its registration dropped) is listed under its id, with no definition.
    expect(log.actors.get('x:0')).toMatchObject({ name: 'x:0', definition: undefined });
  });

  it("a state value as the chart's dotted paths (one per parallel region); a definition that is not a machine or not JSON", () => {
    expect(dottedValue('idle')).toBe('idle');
    expect(dottedValue({ checkout: { paying: 'card' } })).toBe('checkout.paying.card');
    // A parallel state: one path per region, every one lit on the chart.
    expect(statePaths({ session: { audio: 'muted', video: { on: 'hd' } } })).toEqual(['session.audio.muted', 'session.video.on.hd']);
    expect(statePaths({ idle: {} })).toEqual(['idle']);
    expect(definitionMachine(JSON.stringify({ id: 'p' })).kind).toBe('none');
    expect(definitionMachine('{').kind).toBe('error');
  });
});
