// The launchpad's demo projects: names, coins and descriptions in the nine languages.

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
