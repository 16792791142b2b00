// The launchpad's demo: its projects (names, coins and descriptions in the nine languages) and the
// seeding that creates them, subscribes the demo users and ends the closed one.

import { fromMillis } from '../../platform/time.ts';
import type { AgentService } from './agents.ts';
import { createProject, fundInventory, scheduleProject } from './back-office.ts';
import { DAY_MS, DEMO_SEEDED, type LaunchpadDeps, REFERRAL_SETTING } from './deps.ts';
import { distribute, releaseDue } from './distribution.ts';
import * as repo from './repository.ts';
import { DEFAULT_REFERRAL, setReferralConfig } from './rewards.ts';
import { place } from './subscriptions.ts';

const text = (
  ja: string,
  en: string,
  zhCN: string,
  zhTW: string,
  ko: string,
  fr: string,
  de: string,
  it: string,
  tr: string,
) => ({
  'ja-JP': ja,
  'en-US': en,
  'zh-CN': zhCN,
  'zh-TW': zhTW,
  'ko-KR': ko,
  'fr-FR': fr,
  'de-DE': de,
  'it-IT': it,
  'tr-TR': tr,
});
/** The demo's three projects: names, coins and descriptions in the nine languages. */
export const DEMO_PROJECTS = {
  closed: {
    name: 'Nova Network',
    coin: 'NOVA',
    coinName: 'Nova Network',
    descriptions: text(
      'Nova Network は決済向けのレイヤー2です。申込は終了し、配分とロック解除が完了しています。',
      'Nova Network is a payments layer 2. The sale has ended; allocations are distributed and released.',
      'Nova Network 是面向支付的二层网络。申购已结束，配售已发放并解锁。',
      'Nova Network 是面向支付的二層網路。申購已結束，配售已發放並解鎖。',
      'Nova Network는 결제용 레이어 2입니다. 청약이 끝났고 배정과 잠금 해제가 완료되었습니다.',
      'Nova Network est une couche 2 de paiement. La vente est terminée ; les allocations sont distribuées et débloquées.',
      'Nova Network ist ein Layer 2 für Zahlungen. Der Verkauf ist beendet; Zuteilungen sind verteilt und freigegeben.',
      'Nova Network è un layer 2 per i pagamenti. La vendita è chiusa; le assegnazioni sono distribuite e sbloccate.',
      'Nova Network, ödemeler için bir katman 2 ağıdır. Satış bitti; tahsisler dağıtıldı ve kilitleri açıldı.',
    ),
  },
  open: {
    name: 'Orbit Storage',
    coin: 'ORBT',
    coinName: 'Orbit Storage',
    descriptions: text(
      'Orbit Storage は分散型ストレージです。期間中の申込額は凍結され、終了時に按分で配分、残りは返金されます。',
      'Orbit Storage is decentralised storage. Commitments are frozen during the window, allocated pro rata at the end, and the rest refunded.',
      'Orbit Storage 是去中心化存储。申购期间金额冻结，结束时按比例配售，其余退还。',
      'Orbit Storage 是去中心化儲存。申購期間金額凍結，結束時按比例配售，其餘退還。',
      'Orbit Storage는 탈중앙화 스토리지입니다. 기간 중 청약금은 동결되고 종료 시 비례 배정되며 나머지는 환불됩니다.',
      'Orbit Storage est un stockage décentralisé. Les engagements sont gelés pendant la période, alloués au prorata à la fin, le reste remboursé.',
      'Orbit Storage ist dezentraler Speicher. Zusagen werden im Zeitraum eingefroren, am Ende anteilig zugeteilt, der Rest erstattet.',
      'Orbit Storage è uno storage decentralizzato. Gli impegni sono congelati nel periodo, assegnati pro rata alla fine, il resto rimborsato.',
      'Orbit Storage merkeziyetsiz depolamadır. Taahhütler süre boyunca dondurulur, sonunda orantılı dağıtılır, kalanı iade edilir.',
    ),
  },
  upcoming: {
    name: 'Lumen Pay',
    coin: 'LUMA',
    coinName: 'Lumen Pay',
    descriptions: text(
      'Lumen Pay は先着順の販売です。開始後、売り切れまで即時に配分されます。',
      'Lumen Pay is a first-come, first-served sale: from the start, tokens are allocated at once until sold out.',
      'Lumen Pay 为先到先得销售：开始后即时配售，售完为止。',
      'Lumen Pay 為先到先得銷售：開始後即時配售，售完為止。',
      'Lumen Pay는 선착순 판매입니다. 시작 후 매진될 때까지 즉시 배정됩니다.',
      'Lumen Pay est une vente premier arrivé, premier servi : dès l’ouverture, attribution immédiate jusqu’à épuisement.',
      'Lumen Pay ist ein Verkauf nach Eingang: ab Start sofortige Zuteilung bis ausverkauft.',
      'Lumen Pay è una vendita in ordine di arrivo: dall’apertura, assegnazione immediata fino a esaurimento.',
      'Lumen Pay ilk gelen alır satışıdır: başlangıçtan itibaren tükenene kadar anında tahsis edilir.',
    ),
  },
} as const;

/**
 * Demo mode, once: generations 2–3 on (acknowledged as the demo), and three projects so every
 * state shows at once: one closed with its allocations released, one open (pro-rata) with a
 * commitment, one upcoming (first come, first served). Subscriptions go through the same
 * postings as customers' at the times the projects' windows give them.
 */
export async function seedDemo(
  deps: LaunchpadDeps,
  agents: AgentService,
  userIds: readonly bigint[],
): Promise<boolean> {
  const { db, clock, settings } = deps;
  if ((await settings.get(DEMO_SEEDED)) || userIds.length === 0) return false;
  const demo = { staffId: 0n, actor: 'system:demo', ip: '' };
  if (!(await settings.get(REFERRAL_SETTING))) {
    await setReferralConfig(deps, demo, { ...DEFAULT_REFERRAL, generations: 3, acknowledge: true });
  }
  const now = clock.now();
  const minute = now - (now % 60_000);
  const usdt = (units: number) => BigInt(units) * 100_000_000n;
  const base = {
    quote: 'USDT',
    coinDecimals: 4,
    maxPurchases: 1,
    softCap: 0n,
    referralBudgetBp: DEFAULT_REFERRAL.budgetBp,
  };
  const closed = await createProject(deps, demo, {
    ...base,
    ...DEMO_PROJECTS.closed,
    startAt: minute - 40 * DAY_MS,
    endAt: minute - 35 * DAY_MS,
    lockDays: 5,
    totalIssue: usdt(10_000),
    price: usdt(1) / 5n,
    perMin: usdt(100),
    perMax: usdt(10_000),
    individualLimit: usdt(6_000),
    mode: 'pro_rata',
  });
  const open = await createProject(deps, demo, {
    ...base,
    ...DEMO_PROJECTS.open,
    startAt: minute - DAY_MS,
    endAt: minute + 7 * DAY_MS,
    lockDays: 30,
    totalIssue: usdt(500_000),
    price: usdt(1) / 20n,
    perMin: usdt(100),
    perMax: usdt(200_000),
    individualLimit: usdt(50_000),
    mode: 'pro_rata',
  });
  const upcoming = await createProject(deps, demo, {
    ...base,
    ...DEMO_PROJECTS.upcoming,
    startAt: minute + 3 * DAY_MS,
    endAt: minute + 10 * DAY_MS,
    lockDays: 14,
    totalIssue: usdt(200_000),
    price: usdt(1) / 10n,
    perMin: usdt(50),
    perMax: usdt(20_000),
    individualLimit: usdt(20_000),
    mode: 'fcfs',
  });
  for (const id of [closed, open, upcoming]) {
    await fundInventory(deps, demo, id);
    await scheduleProject(deps, demo, id);
  }
  await db.transaction().execute(async (trx) => {
    const past = await repo.findProject(trx, closed);
    const live = await repo.findProject(trx, open);
    if (!past || !live) return;
    for (const [i, userId] of userIds.entries()) {
      await place(
        deps,
        trx,
        past,
        userId,
        usdt(7_500),
        `demo-closed-${i}`,
        fromMillis(past.start_at) + (i + 1) * 3_600_000,
      );
    }
    const last = userIds.at(-1);
    if (last !== undefined) await place(deps, trx, live, last, usdt(100_000), 'demo-open', now - 3_600_000);
    await settings.set(trx, DEMO_SEEDED, String(now));
  });
  const past = await repo.findProject(db, closed);
  if (past) {
    await distribute(deps, agents, closed, fromMillis(past.end_at));
    await releaseDue(deps, fromMillis(past.release_at));
  }
  return true;
}
