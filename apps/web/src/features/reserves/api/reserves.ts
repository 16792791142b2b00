import {
  type InclusionProof,
  type SnapshotHeader,
  VerifyError,
  verifyHeader,
  verifyProof,
} from '@bourse/por';
import { fromAtoms } from '@bourse/shared';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { get } from '../../../api/http.ts';

/** `GET /por/snapshots`: the signed headers, newest first, with the publication key. */
export const snapshotsQueryOptions = queryOptions({
  queryKey: ['reserves', 'snapshots'],
  queryFn: async ({ signal }) => (await get('/por/snapshots', undefined, 'SnapshotList', { signal })).data,
});

export function useSnapshots() {
  return useQuery(snapshotsQueryOptions);
}

/** One asset of a verified proof, beside the user's statement at the snapshot's ledger sequence. */
export interface VerifiedLine {
  asset: string;
  inProof: string;
  inStatement: string;
  matches: boolean;
}

export interface Verification {
  snapshot: SnapshotHeader;
  /** The header is signed by the publication key and follows the one before it (when listed). */
  isSigned: boolean;
  isChained: boolean;
  lines: VerifiedLine[];
  proof: InclusionProof;
}

/**
 * Downloads the caller's proof and statement for a snapshot and verifies the proof here, in the
 * browser (WebCrypto): the header's signature and chain, then the path to the root and totals.
 * Rejects with the verifier's reason when anything fails.
 */
export function useVerifyMyBalance() {
  return useMutation({
    mutationFn: async ({
      list,
      publicKey,
      snapshotId,
    }: {
      list: SnapshotHeader[];
      publicKey: string;
      snapshotId: number;
    }) => {
      const at = list.findIndex((h) => h.snapshot_id === snapshotId);
      const snapshot = list[at];
      if (!snapshot) throw new Error(`snapshot ${snapshotId}`);
      const query = { snapshot_id: String(snapshotId) };
      const [proof, statement] = await Promise.all([
        get('/por/proof', query, 'InclusionProof').then((a) => a.data),
        get('/por/statement', query, 'ReserveStatement').then((a) => a.data),
      ]);
      // why: the list is newest first, so the header before this one comes after it.
      const previous = list[at + 1];
      await verifyHeader(snapshot, publicKey, previous);
      const balances = await verifyProof(proof, snapshot);
      const lines = snapshot.assets.map((asset, i) => {
        const inProof = fromAtoms(balances[i] ?? 0n);
        const inStatement = fromAtoms(BigInt(statement.balances[i] ?? '0'));
        return { asset, inProof, inStatement, matches: inProof === inStatement };
      });
      return {
        snapshot,
        isSigned: true,
        isChained: previous !== undefined,
        lines,
        proof,
      } satisfies Verification;
    },
  });
}

export function failureReason(error: unknown): string | undefined {
  return error instanceof VerifyError ? error.reason : undefined;
}
