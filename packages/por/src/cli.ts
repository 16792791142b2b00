#!/usr/bin/env node
// bourse-por: checks a Bourse proof of reserves and liabilities from the command line.
//
//   bourse-por verify --headers headers.json --key <hex> [--proof proof.json]
//
// headers.json is what GET /apiv/por/snapshots answers (the whole answer, its `data`, or the
// list of headers). Every header's signature and the `prev` chain are checked, every reserve
// entry's signature over its snapshot's message, the reserve totals and ratios recomputed; with
// --proof, the user's inclusion proof is verified against its header. Exit code 0 when all hold.
// Reading the balances at the stated block heights from a node of your own is left to you.
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { isReserveChain, reserveMessage, verifyReserveSignature } from './reserve-signatures.ts';
import {
  type InclusionProof,
  type SnapshotHeader,
  VerifyError,
  verifyHeader,
  verifyProof,
} from './verify.ts';

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function headersOf(value: unknown): SnapshotHeader[] {
  const data = (value as { data?: unknown }).data ?? value;
  const list = (data as { list?: unknown }).list ?? data;
  if (!Array.isArray(list)) throw new Error('no list of headers in the file');
  return [...(list as SnapshotHeader[])].sort((a, b) => a.snapshot_id - b.snapshot_id);
}

function ratio(reserves: bigint, liabilities: bigint): string {
  const scaled = (reserves * 10_000n) / liabilities;
  return `${scaled / 10_000n}.${(scaled % 10_000n).toString().padStart(4, '0')}`;
}

/** Checks everything the headers and the proof claim; answers the failures (empty = all hold). */
export async function check(options: {
  headers: SnapshotHeader[];
  key: string;
  proof?: InclusionProof;
  log?: (line: string) => void;
}): Promise<string[]> {
  const log = options.log ?? (() => {});
  const failures: string[] = [];
  for (const [i, header] of options.headers.entries()) {
    const id = header.snapshot_id;
    try {
      await verifyHeader(header, options.key, i === 0 ? undefined : options.headers[i - 1]);
      log(`snapshot ${id}: header signed${i > 0 ? `, follows ${options.headers[i - 1]?.snapshot_id}` : ''}`);
    } catch (error) {
      failures.push(`snapshot ${id}: ${(error as Error).message}`);
    }
    const totals = new Map<string, bigint>();
    for (const entry of header.reserves) {
      const message = reserveMessage(BigInt(id), header.root);
      const chain = entry.chain;
      const valid =
        entry.message === message &&
        isReserveChain(chain) &&
        (await verifyReserveSignature({ chain, address: entry.address, message, sig: entry.sig }));
      if (!valid)
        failures.push(`snapshot ${id}: the ${entry.asset} entry of ${entry.address} does not verify`);
      else
        log(
          `snapshot ${id}: ${entry.asset} ${entry.address} signed (${entry.scheme})${entry.simulated ? ', simulated' : ''}`,
        );
      totals.set(entry.asset, (totals.get(entry.asset) ?? 0n) + BigInt(entry.balance));
    }
    for (const [asset, total] of totals) {
      if (header.reserve_totals[asset] !== String(total))
        failures.push(`snapshot ${id}: ${asset} reserve total differs`);
      const liabilities = BigInt(header.root_sums[header.assets.indexOf(asset)] ?? '0');
      if (liabilities > 0n && header.ratios[asset] !== ratio(total, liabilities)) {
        failures.push(`snapshot ${id}: ${asset} ratio differs`);
      }
      if (total < liabilities) log(`snapshot ${id}: ${asset} reserves are below the customer balances`);
    }
    if (Object.keys(header.reserve_totals).length !== totals.size)
      failures.push(`snapshot ${id}: reserve totals without entries`);
  }
  if (options.proof) {
    const header = options.headers.find((h) => h.snapshot_id === options.proof?.snapshot_id);
    if (!header) failures.push(`no header for snapshot ${options.proof.snapshot_id}`);
    else {
      try {
        const balances = await verifyProof(options.proof, header);
        log(
          `proof: included in snapshot ${header.snapshot_id}: ${header.assets.map((a, i) => `${a} ${balances[i]}`).join(', ')} (atoms)`,
        );
      } catch (error) {
        failures.push(
          `proof: ${error instanceof VerifyError ? `${error.reason}: ` : ''}${(error as Error).message}`,
        );
      }
    }
  }
  return failures;
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { headers: { type: 'string' }, key: { type: 'string' }, proof: { type: 'string' } },
  });
  if (positionals[0] !== 'verify' || !values.headers || !values.key) {
    console.error(
      'usage: bourse-por verify --headers headers.json --key <publication key hex> [--proof proof.json]',
    );
    return 2;
  }
  const proofFile = values.proof;
  const failures = await check({
    headers: headersOf(readJson(values.headers)),
    key: values.key,
    proof: proofFile
      ? (((readJson(proofFile) as { data?: unknown }).data ?? readJson(proofFile)) as InclusionProof)
      : undefined,
    log: (line) => console.log(`ok   ${line}`),
  });
  for (const failure of failures) console.log(`FAIL ${failure}`);
  console.log(failures.length === 0 ? 'all checks hold' : `${failures.length} check(s) failed`);
  return failures.length === 0 ? 0 : 1;
}

if (import.meta.main) process.exitCode = await main();
