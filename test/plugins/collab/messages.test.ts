import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { recordNotifications, waitFor, type Received } from '../../helpers.js';
import { storeMatrix } from '../../support/test-stores.js';
import { awaitBanner, bannerAfter } from './banner-helpers.js';
import { collabGateway as bootOn, type CollabSession } from './collab-helpers.js';
import { collabDb, insertTask } from './collab-rows.js';

const channelMessages = (received: Received[]) => received.filter((n) => n.method === 'notifications/claude/channel').map((n) => n.params);

for (const backend of storeMatrix()) {
  describe(`collab messages on ${backend.name}`, { skip: backend.skip }, () => {
    after(() => backend.close());
    const collabGateway = async (overrides: Record<string, unknown> = {}) => bootOn(overrides, await backend.fresh());

    /** A gateway with one joined session per name, in order. */
    async function team(names: string[], overrides: Record<string, unknown> = {}) {
      const c = await collabGateway(overrides);
      const sessions: Record<string, CollabSession> = {};
      for (const [i, name] of names.entries()) {
        sessions[name] = i === 0 ? c : await c.session(name);
        await sessions[name]!.call('collab_join', { name });
      }
      return { c, ...sessions } as { c: typeof c } & Record<string, CollabSession>;
    }

    it('sends a direct message; the recipient reads it once as unread, then in all; the sender sees it in sent', async () => {
      const { alice, bob } = await team(['alice', 'bob']);
      const sent = await alice!.call('collab_send_message', { to: 'bob', subject: 'Parser', body: 'The parser is yours.' });
      assert.deepEqual({ ...sent, id: 0, created_at: '' }, { id: 0, from: 'alice', to: 'bob', subject: 'Parser', body: 'The parser is yours.', kind: 'message', reply_to: null, thread_id: sent.id, task_id: null, created_at: '' });

      const looked = await bob!.call('collab_read_messages', { mark_read: false });
      assert.deepEqual([looked.count, looked.marked_read, looked.unread, looked.messages[0].read], [1, 0, 1, false]);
      const read = await bob!.call('collab_read_messages', {});
      assert.deepEqual([read.count, read.marked_read, read.unread, read.next_before_id], [1, 1, 0, null]);
      assert.equal(read.messages[0].read, false, 'read says whether it was read before this call');
      assert.equal((await bob!.call('collab_read_messages', {})).count, 0);
      const all = await bob!.call('collab_read_messages', { filter: 'all' });
      assert.deepEqual(all.messages.map((m: any) => [m.id, m.read]), [[sent.id, true]]);
      const outbox = await alice!.call('collab_read_messages', { filter: 'sent' });
      assert.deepEqual(outbox.messages.map((m: any) => [m.id, m.read]), [[sent.id, true]]);
      assert.equal(outbox.marked_read, 0);
      assert.equal((await alice!.call('collab_read_messages', {})).count, 0);
    });

    it('threads replies; a reply must be to a message of your own mailbox', async () => {
      const { alice, bob, carol } = await team(['alice', 'bob', 'carol']);
      const first = await alice!.call('collab_send_message', { to: 'bob', body: 'Can you review?' });
      const reply = await bob!.call('collab_send_message', { to: 'alice', body: 'Yes, after lunch.', reply_to: first.id });
      const again = await alice!.call('collab_send_message', { to: 'bob', body: 'Thanks.', reply_to: reply.id });
      await alice!.call('collab_send_message', { to: 'bob', body: 'Another matter.' });
      assert.deepEqual([reply.thread_id, reply.reply_to, again.thread_id, again.reply_to], [first.id, first.id, first.id, reply.id]);
      const thread = await alice!.call('collab_read_messages', { filter: 'all', thread_id: first.id });
      assert.deepEqual(thread.messages.map((m: any) => m.id), [again.id, reply.id, first.id]);
      assert.equal(thread.marked_read, 1, 'only the message alice received is marked');

      assert.equal((await carol!.fail('collab_send_message', { to: 'alice', body: 'me too', reply_to: first.id })).code, 'COLLAB_MESSAGE_NOT_FOUND');
      assert.equal((await carol!.fail('collab_send_message', { to: 'alice', body: 'x', reply_to: 999_999 })).code, 'COLLAB_MESSAGE_NOT_FOUND');
    });

    it('pages newest first with before_id, and marks exactly the messages returned', async () => {
      const { alice, bob } = await team(['alice', 'bob']);
      for (let i = 1; i <= 25; i++) await alice!.call('collab_send_message', { to: 'bob', body: `message ${i}` });
      const seen: number[] = [];
      let before: number | null | undefined;
      const sizes: number[] = [];
      do {
        const page = await bob!.call('collab_read_messages', { filter: 'all', limit: 10, mark_read: false, ...(before ? { before_id: before } : {}) });
        sizes.push(page.count);
        seen.push(...page.messages.map((m: any) => m.id));
        before = page.next_before_id;
      } while (before !== null);
      assert.deepEqual(sizes, [10, 10, 5]);
      assert.deepEqual(seen, [...seen].sort((a, b) => b - a));
      assert.equal(new Set(seen).size, 25);

      const first = await bob!.call('collab_read_messages', { limit: 10 });
      assert.deepEqual(first.messages.map((m: any) => m.body), Array.from({ length: 10 }, (_, i) => `message ${25 - i}`));
      assert.deepEqual([first.marked_read, first.unread], [10, 15]);
      const fromAlice = await bob!.call('collab_read_messages', { from: 'alice', limit: 100, mark_read: false });
      assert.equal(fromAlice.count, 15);
      assert.equal((await bob!.call('collab_read_messages', { from: 'carol' })).count, 0);
    });

    it('broadcasts to every other agent registered when it was sent, each marking it read on its own', async () => {
      const { c, alice, bob, carol } = await team(['alice', 'bob', 'carol']);
      const sent = await alice!.call('collab_send_message', { to: 'all', subject: 'Freeze', body: 'Code freeze at five.' });
      const late = await c.session('dave');
      await late.call('collab_join', { name: 'dave' });
      assert.equal((await bob!.call('collab_read_messages', {})).messages[0].id, sent.id);
      assert.equal((await carol!.call('collab_read_messages', { mark_read: false })).count, 1, "bob's read is not carol's");
      assert.equal((await alice!.call('collab_read_messages', {})).count, 0, 'not to its sender');
      assert.equal((await late.call('collab_read_messages', { filter: 'all' })).count, 0, 'not to an agent registered after it');
      assert.equal((await alice!.fail('collab_mark_read', { ids: [sent.id] })).code, 'COLLAB_MESSAGE_NOT_FOUND');
    });

    it('marks by ids or all, nothing when an id is not yours; a message to yourself is allowed', async () => {
      const { alice, bob, carol } = await team(['alice', 'bob', 'carol']);
      const one = await alice!.call('collab_send_message', { to: 'bob', body: 'one' });
      const two = await alice!.call('collab_send_message', { to: 'bob', body: 'two' });
      const theirs = await alice!.call('collab_send_message', { to: 'carol', body: 'for carol' });
      await alice!.call('collab_send_message', { to: 'bob', body: 'three' });

      const refused = await bob!.fail('collab_mark_read', { ids: [one.id, theirs.id] });
      assert.deepEqual([refused.code, refused.details.ids], ['COLLAB_MESSAGE_NOT_FOUND', [theirs.id]]);
      assert.equal((await bob!.call('collab_read_messages', { mark_read: false })).count, 3);
      assert.deepEqual(await bob!.call('collab_mark_read', { ids: [one.id, two.id] }), { marked: 2, unread: 1 });
      assert.deepEqual(await bob!.call('collab_mark_read', { ids: [one.id] }), { marked: 0, unread: 1 });
      assert.deepEqual(await bob!.call('collab_mark_read', { all: true }), { marked: 1, unread: 0 });
      assert.deepEqual(await carol!.call('collab_mark_read', { all: true }), { marked: 1, unread: 0 });
      assert.equal((await bob!.fail('collab_mark_read', {})).code, 'INVALID_ARGUMENTS');
      assert.equal((await bob!.fail('collab_mark_read', { all: false })).code, 'INVALID_ARGUMENTS');

      const note = await bob!.call('collab_send_message', { to: 'bob', body: 'Look at the flaky test.' });
      assert.deepEqual((await bob!.call('collab_read_messages', {})).messages.map((m: any) => m.id), [note.id]);
    });

    it('two sessions of one agent reading at once mark each message once', async () => {
      const { c, alice } = await team(['alice', 'bob']);
      // Sessions that did not join name bob, as REST callers do.
      const readers = await Promise.all([1, 2, 3, 4].map((i) => c.session(`bob-${i}`)));
      for (let i = 0; i < 12; i++) await alice!.call('collab_send_message', { to: 'bob', body: `m${i}` });
      const reads: any[] = await Promise.all(readers.map((reader) => reader.call('collab_read_messages', { agent: 'bob', limit: 100 })));
      assert.equal(reads.reduce((sum, read) => sum + read.marked_read, 0), 12);
      assert.ok(reads.every((read) => read.count <= 12));
    });

    it('refuses unknown recipients and senders, messages over the caps, unknown tasks, and acting as another', async () => {
      const { c, alice } = await team(['alice', 'bob'], { plugins: { collab: { config: { messages: { maxSubjectChars: 10, maxBodyChars: 100 } } } } });
      const task = await insertTask(c, { title: 'T', assignee: 'bob', status: 'pending' });
      const about = await alice!.call('collab_send_message', { to: 'bob', body: 'about the task', task_id: task });
      assert.equal(about.task_id, task);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ to: 'nobody', body: 'x' }, 'COLLAB_AGENT_NOT_FOUND'],
        [{ to: 'system', body: 'x' }, 'COLLAB_AGENT_NOT_FOUND'],
        [{ to: 'any', body: 'x' }, 'COLLAB_AGENT_NOT_FOUND'],
        [{ to: 'bob', subject: 'x'.repeat(11), body: 'x' }, 'COLLAB_MESSAGE_TOO_LARGE'],
        [{ to: 'bob', body: 'x'.repeat(101) }, 'COLLAB_MESSAGE_TOO_LARGE'],
        [{ to: 'bob', body: 'x', task_id: 999 }, 'COLLAB_TASK_NOT_FOUND'],
        [{ to: 'bob', body: 'x', agent: 'bob' }, 'COLLAB_NOT_PERMITTED'],
        [{ to: 'bob', body: '' }, 'INVALID_ARGUMENTS'],
        [{ to: 'Bob', body: 'x' }, 'INVALID_ARGUMENTS'],
        [{ to: 'bob', body: 'x', kind: 'stop' }, 'INVALID_ARGUMENTS'],
      ];
      for (const [args, code] of cases) assert.equal((await alice!.fail('collab_send_message', args)).code, code, JSON.stringify(args));
      const big = await alice!.fail('collab_send_message', { to: 'bob', body: 'x'.repeat(101) });
      assert.deepEqual(big.details, { field: 'body', limit: 100, length: 101 });
      const stranger = await c.session('stranger');
      assert.equal((await stranger.fail('collab_send_message', { agent: 'ghost', to: 'bob', body: 'x' })).code, 'COLLAB_AGENT_NOT_FOUND');
      assert.equal((await stranger.fail('collab_read_messages', {})).code, 'COLLAB_AGENT_REQUIRED');
    });

    it('retention keeps the newest retainCount messages and drops the read marks of the pruned', async () => {
      const { c, alice, bob } = await team(['alice', 'bob'], { plugins: { collab: { config: { messages: { retainCount: 10 } } } } });
      for (let i = 1; i <= 31; i++) await alice!.call('collab_send_message', { to: 'bob', body: `m${i}` });
      await bob!.call('collab_mark_read', { all: true });
      // The 32nd send of this gateway prunes.
      await alice!.call('collab_send_message', { to: 'bob', body: 'm32' });
      const db = collabDb(c);
      const count = async (table: 'collab_messages' | 'collab_message_reads') => Number((await db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      let messages = 32;
      await waitFor(() => {
        void count('collab_messages').then((n) => (messages = n));
        return messages === 10;
      });
      assert.equal(await count('collab_message_reads'), 9);
      const left = await bob!.call('collab_read_messages', { filter: 'all', limit: 100, mark_read: false });
      assert.deepEqual(left.messages.map((m: any) => m.body), Array.from({ length: 10 }, (_, i) => `m${32 - i}`));
      assert.equal(left.messages[0].read, false);
    });

    it('notifies the recipient\'s session only; a broadcast every joined session but the sender\'s', async () => {
      const { alice, bob, carol } = await team(['alice', 'bob', 'carol']);
      const heard = { alice: recordNotifications(alice!.client), bob: recordNotifications(bob!.client), carol: recordNotifications(carol!.client) };
      const direct = await alice!.call('collab_send_message', { to: 'bob', subject: 'Hi', body: 'Only for bob.' });
      await waitFor(() => heard.bob.length === 2);
      const [channel] = channelMessages(heard.bob);
      assert.equal(channel.channel, 'collab.message');
      assert.deepEqual(channel.data, { id: direct.id, from: 'alice', to: 'bob', subject: 'Hi', kind: 'message', thread_id: direct.id, task_id: null, preview: 'Only for bob.' });
      const log = heard.bob.find((n) => n.method === 'notifications/message')!;
      assert.equal(log.params.level, 'info');
      assert.equal(log.params.logger, 'collab');
      assert.match(log.params.data.text, /^Message #\d+ from alice: Hi$/);

      const broadcast = await alice!.call('collab_send_message', { to: 'all', body: 'Everyone.' });
      // Notifications of one session arrive in order: once carol has the broadcast, she would have had the direct one.
      await waitFor(() => heard.bob.length === 4 && heard.carol.length === 2);
      assert.deepEqual(channelMessages(heard.carol).map((p) => p.data.id), [broadcast.id]);
      assert.deepEqual(channelMessages(heard.bob).map((p) => p.data.id), [direct.id, broadcast.id]);
      // alice hears of a message to her; before it, nothing of her own two.
      await bob!.call('collab_send_message', { to: 'alice', body: 'Back to you.' });
      await waitFor(() => heard.alice.length === 2);
      assert.deepEqual(channelMessages(heard.alice).map((p) => p.data.from), ['bob']);
    });

    it('a message sent on one gateway reaches the recipient\'s session on another gateway of the store', { skip: backend.name === 'sqlite' && 'events cross gateways through PostgreSQL' }, async () => {
      const store = await backend.fresh();
      const first = await bootOn({}, store);
      const second = await bootOn({}, { ...store, dataDir: `${store.dataDir}-second` });
      await first.call('collab_join', { name: 'alice' });
      await second.call('collab_join', { name: 'bob' });
      const heard = recordNotifications(second.client);
      const sent = await first.call('collab_send_message', { to: 'bob', body: 'Across gateways.' });
      await waitFor(() => channelMessages(heard).length === 1);
      assert.equal(channelMessages(heard)[0].data.id, sent.id);
      assert.equal(await awaitBanner(second.client), '[collab] bob: 1 unread message (collab_read_messages)');
      assert.equal((await second.call('collab_read_messages', {})).messages[0].body, 'Across gateways.');
    });

    it('the banner: the next result after a message carries it once; reading never does; banner: false turns it off', async () => {
      const { c, alice, bob } = await team(['alice', 'bob']);
      await alice!.call('collab_send_message', { to: 'bob', body: 'one' });
      await alice!.call('collab_send_message', { to: 'bob', body: 'two' });
      await insertTask(c, { title: 'T', assignee: 'bob', status: 'pending' });
      await alice!.call('collab_send_message', { to: 'bob', body: 'three' });
      assert.equal(await awaitBanner(bob!.client), '[collab] bob: 3 unread messages (collab_read_messages); 1 pending task (collab_claim_next)');
      assert.equal(await bannerAfter(bob!.client), undefined, 'once');
      assert.equal(await bannerAfter(alice!.client), undefined, 'not to the sender');

      await alice!.call('collab_send_message', { to: 'bob', body: 'four' });
      const read = await bob!.client.callTool({ name: 'collab_read_messages', arguments: {} });
      assert.equal(read.isError, undefined);
      assert.equal((read.content as unknown[]).length, 1, 'no banner on collab_read_messages');
      assert.equal(await bannerAfter(bob!.client), undefined, 'reading took the news in');

      const quiet = await team(['alice', 'bob'], { plugins: { collab: { config: { banner: false } } } });
      await quiet.alice!.call('collab_send_message', { to: 'bob', body: 'one' });
      const heard = recordNotifications(quiet.bob!.client);
      await quiet.alice!.call('collab_send_message', { to: 'bob', body: 'two' });
      await waitFor(() => heard.length === 2);
      for (let i = 0; i < 3; i++) assert.equal(await bannerAfter(quiet.bob!.client), undefined);
    });
  });
}
