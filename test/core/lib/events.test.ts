import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EventBus, isValidPattern, type GatewayEvent } from '../../../core/lib/events.js';
import { createLogger } from '../../../core/lib/logger.js';

function bus(): EventBus {
  return new EventBus(createLogger('silent'));
}

/** The channels among `channels` that a subscriber to `pattern` receives. */
function delivered(pattern: string, channels: string[]): string[] {
  const events = bus();
  const seen: string[] = [];
  events.subscribe(pattern, (event) => seen.push(event.channel));
  for (const channel of channels) events.publish('test', channel, null);
  return seen;
}

const CHANNELS = ['process', 'process.exit', 'process.start', 'process.exit.code', 'process.a.b.c', 'files.write', 'processes.exit'];

describe('event bus matching', () => {
  const table: Array<[pattern: string, expected: string[]]> = [
    ['process.exit', ['process.exit']],
    ['process', ['process']],
    ['files.write', ['files.write']],
    ['process.*', ['process.exit', 'process.start']],
    ['*.exit', ['process.exit', 'processes.exit']],
    ['*', ['process']],
    ['*.*', ['process.exit', 'process.start', 'files.write', 'processes.exit']],
    ['process.*.code', ['process.exit.code']],
    ['process.**', ['process.exit', 'process.start', 'process.exit.code', 'process.a.b.c']],
    ['*.**', ['process.exit', 'process.start', 'process.exit.code', 'process.a.b.c', 'files.write', 'processes.exit']],
    ['**', CHANNELS],
    ['process.exit.**', ['process.exit.code']],
    // A prefix of a channel is not a match, at segment or character level.
    ['proc', []],
    ['process.ex', []],
    ['process.exit.code.more', []],
    ['files', []],
  ];

  for (const [pattern, expected] of table) {
    it(`${pattern} → ${expected.join(', ') || 'nothing'}`, () => {
      assert.deepEqual(delivered(pattern, CHANNELS), expected);
    });
  }

  it('delivers the channel, data, source and time', () => {
    const events = bus();
    const seen: GatewayEvent[] = [];
    events.subscribe('process.exit', (event) => seen.push(event));
    const data = { pid: 42, code: 0 };
    events.publish('process', 'process.exit', data);
    assert.equal(seen.length, 1);
    const [event] = seen;
    assert.equal(event!.channel, 'process.exit');
    assert.equal(event!.source, 'process');
    assert.equal(event!.data, data);
    assert.ok(!Number.isNaN(Date.parse(event!.time)));
    assert.equal(new Date(event!.time).toISOString(), event!.time);
  });

  it('delivers to every matching subscriber, in subscription order', () => {
    const events = bus();
    const order: string[] = [];
    events.subscribe('**', () => order.push('all'));
    events.subscribe('process.exit', () => order.push('exact'));
    events.subscribe('files.*', () => order.push('files'));
    events.subscribe('process.*', () => order.push('star'));
    events.publish('test', 'process.exit', null);
    assert.deepEqual(order, ['all', 'exact', 'star']);
  });
});

describe('event bus subscribers', () => {
  it('a throwing subscriber neither stops the others nor reaches the publisher', () => {
    const events = bus();
    const seen: string[] = [];
    events.subscribe('a.b', () => seen.push('first'));
    events.subscribe('a.b', () => {
      throw new Error('subscriber bug');
    });
    events.subscribe('a.*', () => {
      throw 'not even an Error';
    });
    events.subscribe('a.b', () => seen.push('last'));
    assert.doesNotThrow(() => events.publish('test', 'a.b', 1));
    assert.deepEqual(seen, ['first', 'last']);
  });

  it('unsubscribe stops delivery to that subscriber only, and twice is harmless', () => {
    const events = bus();
    const seen: string[] = [];
    const stopA = events.subscribe('x.y', () => seen.push('a'));
    events.subscribe('x.y', () => seen.push('b'));
    assert.equal(events.subscriberCount, 2);
    events.publish('test', 'x.y', null);
    stopA();
    stopA();
    assert.equal(events.subscriberCount, 1);
    events.publish('test', 'x.y', null);
    assert.deepEqual(seen, ['a', 'b', 'b']);
  });

  it('the same handler subscribed twice is delivered twice and unsubscribed separately', () => {
    const events = bus();
    let count = 0;
    const handler = () => count++;
    const first = events.subscribe('x', handler);
    events.subscribe('x', handler);
    events.publish('test', 'x', null);
    first();
    events.publish('test', 'x', null);
    assert.equal(count, 3);
  });

  it('a subscriber added while an event is delivered does not receive that event', () => {
    const events = bus();
    let added = 0;
    events.subscribe('grow', () => {
      events.subscribe('grow', () => added++);
    });
    events.publish('test', 'grow', null);
    assert.equal(added, 0);
    assert.equal(events.subscriberCount, 2);
    events.publish('test', 'grow', null);
    assert.equal(added, 1);
  });

  it('a subscriber may unsubscribe itself while handling', () => {
    const events = bus();
    let count = 0;
    const stop = events.subscribe('once', () => {
      count++;
      stop();
    });
    events.publish('test', 'once', null);
    events.publish('test', 'once', null);
    assert.equal(count, 1);
  });

  it('publishing from inside a subscriber delivers the nested event', () => {
    const events = bus();
    const seen: string[] = [];
    events.subscribe('outer', () => events.publish('test', 'inner', null));
    events.subscribe('**', (event) => seen.push(event.channel));
    events.publish('test', 'outer', null);
    assert.deepEqual(seen, ['inner', 'outer']);
  });
});

describe('event bus validation', () => {
  const invalidChannels = ['', '.', 'a.', '.a', 'a..b', 'a b', 'a/b', 'a:b', 'process.*', '**', '*', 'a.**', 'é', 'a\nb', 'a\0'];
  for (const channel of invalidChannels) {
    it(`publish refuses channel ${JSON.stringify(channel)}`, () => {
      const events = bus();
      let called = false;
      events.subscribe('**', () => (called = true));
      assert.throws(() => events.publish('test', channel, null), TypeError);
      assert.equal(called, false);
    });
  }

  it('publish accepts words of letters, digits, - and _', () => {
    assert.deepEqual(delivered('**', ['a', 'A.b', 'a-b.c_d', '0.1.2', 'plugin.event-name_2']), [
      'a',
      'A.b',
      'a-b.c_d',
      '0.1.2',
      'plugin.event-name_2',
    ]);
  });

  const patterns: Array<[pattern: string, valid: boolean]> = [
    ['process', true],
    ['process.exit', true],
    ['process.*', true],
    ['*.exit', true],
    ['*', true],
    ['*.*', true],
    ['**', true],
    ['process.**', true],
    ['a.*.**', true],
    ['a-b.c_d.0', true],
    ['', false],
    ['.', false],
    ['a.', false],
    ['.a', false],
    ['a..b', false],
    ['***', false],
    ['proc*', false],
    ['*exit', false],
    ['process.**x', false],
    ['a b', false],
    ['a/b', false],
    ['a.#', false],
    ['a.>', false],
    ['a\n', false],
    // `**` takes the rest of the channel, so nothing may follow it.
    ['**.exit', false],
    ['a.**.b', false],
    ['**.**', false],
  ];
  for (const [pattern, valid] of patterns) {
    it(`isValidPattern(${JSON.stringify(pattern)}) is ${valid}`, () => {
      assert.equal(isValidPattern(pattern), valid);
    });
  }

  it('subscribe refuses a pattern isValidPattern refuses, rather than matching it wrongly', () => {
    const events = bus();
    for (const pattern of ['a.**.b', '**.exit', '', 'a..b', 'proc*']) {
      assert.throws(() => events.subscribe(pattern, () => {}), TypeError, pattern);
    }
    assert.equal(events.subscriberCount, 0);
  });
});

describe('event bus relay (events from and to other gateways)', () => {
  it('hands each published event to the relay after local delivery, the same object', () => {
    const bus = new EventBus(createLogger('silent'));
    const order: string[] = [];
    const relayed: GatewayEvent[] = [];
    let local: GatewayEvent | undefined;
    bus.subscribe('a.*', (event) => (order.push('local'), (local = event)));
    bus.relayTo((event) => (order.push('relay'), relayed.push(event)));
    bus.publish('p', 'a.b', { n: 1 });
    assert.deepEqual(order, ['local', 'relay']);
    assert.equal(relayed[0], local);
  });

  it('delivers a received event locally and never relays it back', () => {
    const bus = new EventBus(createLogger('silent'));
    const relayed: GatewayEvent[] = [];
    const seen: GatewayEvent[] = [];
    bus.relayTo((event) => relayed.push(event));
    bus.subscribe('**', (event) => seen.push(event));
    const remote = { channel: 'x.y', data: [1], source: 'other', time: '2026-01-01T00:00:00.000Z' };
    bus.receive(remote);
    assert.deepEqual(seen, [remote]);
    assert.deepEqual(relayed, []);
  });

  it('keeps publishing when the relay throws, and stops relaying once it is removed', () => {
    const bus = new EventBus(createLogger('silent'));
    const seen: unknown[] = [];
    let relayed = 0;
    bus.subscribe('a.b', (event) => seen.push(event.data));
    bus.relayTo(() => {
      relayed++;
      throw new Error('relay down');
    });
    assert.doesNotThrow(() => bus.publish('p', 'a.b', 1));
    bus.relayTo(undefined);
    bus.publish('p', 'a.b', 2);
    assert.deepEqual(seen, [1, 2]);
    assert.equal(relayed, 1);
  });
});
