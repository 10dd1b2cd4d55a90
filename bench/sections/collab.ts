// The collab plugin: how many tasks 16 agents claim and complete per second on the default
// SQLite store, and how long a message takes from send to the recipient's notification —
// each against a bare SDK server doing the least a task board must (bench/servers/bare-collab.js).
import { join } from 'node:path';
import { spawnNode, tempDir, type Child, ROOT } from '../lib/children.js';
import { socketClient, startGatewayServe, type Address, type ServingChild } from '../lib/connect.js';
import type { BenchOptions } from '../lib/options.js';
import type { RawMcpClient } from '../lib/raw-client.js';
import { int, ms, ratio, type SectionResult, type Table, type Target } from '../lib/report.js';
import { median, percentile } from '../lib/stats.js';

const BARE_COLLAB = join(ROOT, 'bench', 'servers', 'bare-collab.js');
const AGENTS = 16;

const data = (result: { content: Array<{ text?: string }> }) => JSON.parse(result.content[0]?.text ?? 'null');

/** One side of the comparison: the same steps spelled in its own tools. */
interface Board {
  readonly name: string;
  readonly address: Address<'tcp'>;
  readonly key?: string;
  join(client: RawMcpClient, agent: string): Promise<unknown>;
  createTask(client: RawMcpClient, title: string, priority: number): Promise<unknown>;
  /** Claims the next task; its id, or undefined when there is none. */
  claim(client: RawMcpClient): Promise<number | undefined>;
  complete(client: RawMcpClient, id: number): Promise<unknown>;
  send(client: RawMcpClient, to: string, body: string): Promise<unknown>;
}

function gatewayBoard(serving: ServingChild): Board {
  return {
    name: 'gateway',
    address: serving.tcp,
    key: serving.key,
    join: (c, agent) => c.callTool('collab_join', { name: agent }),
    createTask: (c, title, priority) => c.callTool('collab_create_task', { title, priority }),
    async claim(c) {
      const answer = data(await c.callTool('collab_claim_next', {}));
      if (answer.action === 'claimed') return answer.task.id as number;
      if (answer.action === 'idle') return undefined;
      throw new Error(`collab_claim_next answered ${JSON.stringify(answer).slice(0, 200)}`);
    },
    complete: (c, id) => c.callTool('collab_update_task', { id, status: 'completed' }),
    send: (c, to, body) => c.callTool('collab_send_message', { to, body }),
  };
}

function bareBoard(address: Address<'tcp'>): Board {
  return {
    name: 'bare',
    address,
    join: (c, agent) => c.callTool('join', { name: agent }),
    createTask: (c, title, priority) => c.callTool('create_task', { title, priority }),
    async claim(c) {
      const answer = data(await c.callTool('claim_next', {}));
      return answer.action === 'claimed' ? (answer.task.id as number) : undefined;
    },
    complete: (c, id) => c.callTool('complete', { id }),
    send: (c, to, body) => c.callTool('send', { to, body }),
  };
}

/** 16 agents on their own TCP sessions claim and complete until the board is empty; tasks per second. */
async function drain(board: Board, agents: RawMcpClient[], driver: RawMcpClient, tasks: number, round: number): Promise<{ perSecond: number; claims: number[] }> {
  for (let i = 0; i < tasks; i++) await board.createTask(driver, `round ${round} task ${i}`, 1 + (i % 4));
  const claims: number[] = [];
  let done = 0;
  const started = performance.now();
  await Promise.all(
    agents.map(async (agent) => {
      for (;;) {
        const t = performance.now();
        const id = await board.claim(agent);
        claims.push(performance.now() - t);
        if (id === undefined) return;
        await board.complete(agent, id);
        done += 1;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  if (done !== tasks) throw new Error(`${board.name}: ${done} tasks completed of ${tasks}`);
  return { perSecond: done / seconds, claims };
}

/** Sequential sends from alice to bob; the time from the send to bob's channel notification of that message. */
async function deliveries(board: Board, alice: RawMcpClient, bob: RawMcpClient, count: number): Promise<number[]> {
  const times: number[] = [];
  let waiting: ((time: number) => void) | undefined;
  bob.onNotification = (method) => {
    if (method === 'notifications/claude/channel') waiting?.(performance.now());
  };
  for (let i = 0; i < count; i++) {
    const arrived = new Promise<number>((resolve) => (waiting = resolve));
    const t = performance.now();
    await board.send(alice, 'bob', `message ${i}: the build on main is green again, go ahead and rebase.`);
    times.push((await arrived) - t);
  }
  bob.onNotification = undefined;
  return times;
}

interface Connected {
  readonly agents: RawMcpClient[];
  readonly driver: RawMcpClient;
  readonly alice: RawMcpClient;
  readonly bob: RawMcpClient;
}

async function connect(board: Board): Promise<Connected> {
  const open = async (agent: string) => {
    const client = await socketClient(board.address, board.key);
    await board.join(client, agent);
    return client;
  };
  const agents = await Promise.all(Array.from({ length: AGENTS }, (_, i) => open(`agent-${String(i + 1).padStart(2, '0')}`)));
  return { agents, driver: await open('driver'), alice: await open('alice'), bob: await open('bob') };
}

async function closeAll(connected: Connected | undefined): Promise<void> {
  if (!connected) return;
  await Promise.all([...connected.agents, connected.driver, connected.alice, connected.bob].map((c) => c.close().catch(() => {})));
}

export async function collabSection(options: BenchOptions): Promise<SectionResult> {
  const tasks = options.quick ? 160 : 800;
  const messages = options.quick ? 100 : 500;
  const dir = tempDir();
  const gateway = await startGatewayServe(dir, [], { plugins: { process: {}, collab: { config: { banner: false } } } });
  const bareChild: Child = spawnNode(BARE_COLLAB, ['--tcp', '127.0.0.1:0', '--db', join(dir, 'bare-collab.db')]);
  bareChild.process.stdin?.end();
  let sides: Array<{ board: Board; connected?: Connected }> = [];
  try {
    const [bareAddress] = await bareChild.listening(1);
    sides = [{ board: gatewayBoard(gateway) }, { board: bareBoard(bareAddress as Address<'tcp'>) }];
    for (const side of sides) side.connected = await connect(side.board);

    // Throughput: rounds alternate which side goes first; one unmeasured round each warms up.
    const perSecond: number[][] = [[], []];
    const claimTimes: number[][] = [[], []];
    for (let round = 0; round <= options.rounds; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const s of order) {
        const { board, connected } = sides[s]!;
        const result = await drain(board, connected!.agents, connected!.driver, round === 0 ? tasks / 4 : tasks, round);
        if (round === 0) continue;
        perSecond[s]!.push(result.perSecond);
        claimTimes[s]!.push(...result.claims);
      }
    }
    const ratios = perSecond[0]!.map((g, i) => g / perSecond[1]![i]!);

    // Delivery latency, the two sides' sends interleaved in blocks of ten.
    const latency: number[][] = [[], []];
    for (let block = 0; block < messages / 10; block++) {
      for (const s of block % 2 === 0 ? [0, 1] : [1, 0]) {
        const { board, connected } = sides[s]!;
        latency[s]!.push(...(await deliveries(board, connected!.alice, connected!.bob, 10)));
      }
    }

    const p = (values: number[], q: number) => percentile(values, q);
    const throughput: Table = {
      title: `${AGENTS} agents claim and complete ${int(tasks)} tasks (TCP, one session each; median of ${options.rounds} rounds)`,
      columns: ['', 'gateway (collab)', 'bare SDK server + SQLite', 'gateway / bare'],
      rows: [
        ['tasks claimed and completed per second', int(median(perSecond[0]!)), int(median(perSecond[1]!)), ratio(median(ratios))],
        ['collab_claim_next p50', ms(p(claimTimes[0]!, 50)), ms(p(claimTimes[1]!, 50)), ratio(p(claimTimes[1]!, 50) / p(claimTimes[0]!, 50))],
        ['collab_claim_next p99', ms(p(claimTimes[0]!, 99)), ms(p(claimTimes[1]!, 99)), ratio(p(claimTimes[1]!, 99) / p(claimTimes[0]!, 99))],
      ],
    };
    const delivery: Table = {
      title: `Message delivery: send → the recipient's \`notifications/claude/channel\` (${int(messages)} messages each, sequential)`,
      columns: ['', 'gateway (collab)', 'bare SDK server', 'bare / gateway'],
      rows: [50, 99].map((q) => [`p${q}`, ms(p(latency[0]!, q)), ms(p(latency[1]!, q)), ratio(p(latency[1]!, q) / p(latency[0]!, q))]),
    };
    const targets: Target[] = [
      { item: '11. Collab: claim + complete throughput, 16 agents, gateway / bare', value: ratio(median(ratios)), target: '— (reported)', met: null },
      { item: '11. Collab: message delivery p50 / p99', value: `${ms(p(latency[0]!, 50))} / ${ms(p(latency[0]!, 99))}`, target: '— (reported)', met: null },
    ];
    return {
      id: 'collab',
      title: '11. Collab: claims by 16 agents, message delivery',
      method: [
        `The gateway (\`mcp-gateway serve\`, the default SQLite shared store, audit on, \`banner: false\`) and a bare baseline (bench/servers/bare-collab.js: the MCP SDK's low-level Server on TCP with five tools over a better-sqlite3 file in WAL mode; a claim is one conditional UPDATE … RETURNING; no validation, audit, identity checks, events or retention — the limit for this work) each get ${AGENTS} agents on their own TCP sessions plus a driver. ` +
          `Per round the driver creates ${int(tasks)} tasks (priorities 1-4, not measured); then every agent loops claim-next → complete until it gets nothing, all ${AGENTS} at once. Tasks per second is completed tasks over the drain's wall time. One smaller unmeasured round each first; the sides alternate which goes first.`,
        `Delivery: agent alice sends bob a message ${int(messages)} times, one at a time; the time runs from the send to the arrival of bob's \`notifications/claude/channel\` for it, in blocks of ten per side, the sides alternating. On the gateway the message is stored, published as the event \`collab.message.sent\` and turned into notifications for bob's bound sessions (and a banner when on); on the bare side the server writes the row and notifies bob's session directly.`,
      ],
      tables: [throughput, delivery],
      targets,
      profiles: [],
    };
  } finally {
    for (const side of sides) await closeAll(side.connected);
    await Promise.all([gateway.child.stop(), bareChild.stop()]);
  }
}
