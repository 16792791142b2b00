// The static verifier page (`/por/verify.html`): the proof and the headers are pasted or loaded
// from a file (and fetched from this site when it is online); every check runs in the browser
// with WebCrypto. The build inlines this script, so the page also works saved to disk, offline.
import {
  type InclusionProof,
  keyFingerprint,
  type SnapshotHeader,
  VerifyError,
  verifyHeader,
  verifyProof,
} from '../src/index.ts';

type Texts = Record<
  | 'title'
  | 'lead'
  | 'proof'
  | 'headers'
  | 'key'
  | 'verify'
  | 'fingerprint'
  | 'signature'
  | 'chain'
  | 'chainFirst'
  | 'inclusion'
  | 'balances'
  | 'included'
  | 'failed'
  | 'noHeader'
  | 'badJson',
  string
>;

const TEXTS: Record<string, Texts> = {
  en: {
    title: 'Proof of reserves: verify my balance',
    lead: 'Paste your proof (downloaded in the app) and the published snapshot headers. Every check runs in this page; nothing is sent anywhere.',
    proof: 'My proof (JSON)',
    headers: 'Snapshot headers (JSON, as published)',
    key: 'Publication key (hex)',
    verify: 'Verify',
    fingerprint: 'Key fingerprint: {0}',
    signature: 'The header of snapshot {0} is signed by the publication key',
    chain: 'It follows snapshot {0} in the published chain',
    chainFirst: 'It is the first snapshot of the chain',
    inclusion: 'My balances lead to the published root and totals',
    balances: 'Included in snapshot {0} ({1}):',
    included: 'Verified',
    failed: 'Failed: {0}',
    noHeader: 'No header for snapshot {0}',
    badJson: 'Not valid JSON',
  },
  ja: {
    title: '準備金証明：残高の検証',
    lead: 'アプリでダウンロードした証明と、公開されたスナップショットのヘッダーを貼り付けてください。検証はすべてこのページ内で行われ、何も送信されません。',
    proof: '私の証明（JSON）',
    headers: 'スナップショットのヘッダー（公開された JSON）',
    key: '公開鍵（16進）',
    verify: '検証する',
    fingerprint: '鍵のフィンガープリント：{0}',
    signature: 'スナップショット {0} のヘッダーは公開鍵で署名されています',
    chain: '公開チェーンでスナップショット {0} の次にあります',
    chainFirst: 'チェーンの最初のスナップショットです',
    inclusion: '私の残高から公開されたルートと合計が再現されます',
    balances: 'スナップショット {0}（{1}）に含まれる残高：',
    included: '検証済み',
    failed: '失敗：{0}',
    noHeader: 'スナップショット {0} のヘッダーがありません',
    badJson: 'JSON が正しくありません',
  },
  zh: {
    title: '储备证明：验证我的余额',
    lead: '粘贴您在应用中下载的证明和已公布的快照头。所有检查都在本页面内完成，不会发送任何数据。',
    proof: '我的证明（JSON）',
    headers: '快照头（已公布的 JSON）',
    key: '发布公钥（十六进制）',
    verify: '验证',
    fingerprint: '公钥指纹：{0}',
    signature: '快照 {0} 的头由发布公钥签名',
    chain: '它在公布的链中紧随快照 {0}',
    chainFirst: '它是链中的第一个快照',
    inclusion: '我的余额可推出已公布的根和总额',
    balances: '快照 {0}（{1}）中包含的余额：',
    included: '已验证',
    failed: '失败：{0}',
    noHeader: '没有快照 {0} 的头',
    badJson: 'JSON 无效',
  },
  'zh-TW': {
    title: '儲備證明：驗證我的餘額',
    lead: '貼上您在應用程式中下載的證明與已公布的快照標頭。所有檢查都在本頁完成，不會傳送任何資料。',
    proof: '我的證明（JSON）',
    headers: '快照標頭（已公布的 JSON）',
    key: '發布公鑰（十六進位）',
    verify: '驗證',
    fingerprint: '公鑰指紋：{0}',
    signature: '快照 {0} 的標頭由發布公鑰簽署',
    chain: '它在公布的鏈中緊接快照 {0}',
    chainFirst: '它是鏈中的第一個快照',
    inclusion: '我的餘額可推出已公布的根與總額',
    balances: '快照 {0}（{1}）中包含的餘額：',
    included: '已驗證',
    failed: '失敗：{0}',
    noHeader: '沒有快照 {0} 的標頭',
    badJson: 'JSON 無效',
  },
  ko: {
    title: '준비금 증명: 내 잔액 검증',
    lead: '앱에서 내려받은 증명과 공개된 스냅샷 헤더를 붙여 넣으세요. 모든 검사는 이 페이지 안에서 실행되며 아무것도 전송되지 않습니다.',
    proof: '내 증명 (JSON)',
    headers: '스냅샷 헤더 (공개된 JSON)',
    key: '공개 키 (16진수)',
    verify: '검증',
    fingerprint: '키 지문: {0}',
    signature: '스냅샷 {0}의 헤더가 공개 키로 서명되었습니다',
    chain: '공개 체인에서 스냅샷 {0} 다음에 있습니다',
    chainFirst: '체인의 첫 스냅샷입니다',
    inclusion: '내 잔액이 공개된 루트와 합계로 이어집니다',
    balances: '스냅샷 {0} ({1})에 포함된 잔액:',
    included: '검증됨',
    failed: '실패: {0}',
    noHeader: '스냅샷 {0}의 헤더가 없습니다',
    badJson: '올바른 JSON이 아닙니다',
  },
  fr: {
    title: 'Preuve de réserves : vérifier mon solde',
    lead: 'Collez votre preuve (téléchargée dans l’application) et les en-têtes d’instantanés publiés. Toutes les vérifications s’exécutent dans cette page ; rien n’est envoyé.',
    proof: 'Ma preuve (JSON)',
    headers: 'En-têtes d’instantanés (JSON publié)',
    key: 'Clé de publication (hex)',
    verify: 'Vérifier',
    fingerprint: 'Empreinte de la clé : {0}',
    signature: 'L’en-tête de l’instantané {0} est signé par la clé de publication',
    chain: 'Il suit l’instantané {0} dans la chaîne publiée',
    chainFirst: 'C’est le premier instantané de la chaîne',
    inclusion: 'Mes soldes mènent à la racine et aux totaux publiés',
    balances: 'Inclus dans l’instantané {0} ({1}) :',
    included: 'Vérifié',
    failed: 'Échec : {0}',
    noHeader: 'Aucun en-tête pour l’instantané {0}',
    badJson: 'JSON invalide',
  },
  de: {
    title: 'Reservenachweis: mein Guthaben prüfen',
    lead: 'Fügen Sie Ihren Nachweis (in der App heruntergeladen) und die veröffentlichten Schnappschuss-Header ein. Alle Prüfungen laufen auf dieser Seite; nichts wird gesendet.',
    proof: 'Mein Nachweis (JSON)',
    headers: 'Schnappschuss-Header (veröffentlichtes JSON)',
    key: 'Veröffentlichungsschlüssel (hex)',
    verify: 'Prüfen',
    fingerprint: 'Fingerabdruck des Schlüssels: {0}',
    signature: 'Der Header von Schnappschuss {0} ist mit dem Veröffentlichungsschlüssel signiert',
    chain: 'Er folgt in der veröffentlichten Kette auf Schnappschuss {0}',
    chainFirst: 'Er ist der erste Schnappschuss der Kette',
    inclusion: 'Meine Guthaben führen zur veröffentlichten Wurzel und zu den Summen',
    balances: 'Enthalten in Schnappschuss {0} ({1}):',
    included: 'Geprüft',
    failed: 'Fehlgeschlagen: {0}',
    noHeader: 'Kein Header für Schnappschuss {0}',
    badJson: 'Kein gültiges JSON',
  },
  it: {
    title: 'Prova delle riserve: verifica il mio saldo',
    lead: 'Incolla la tua prova (scaricata nell’app) e le intestazioni degli snapshot pubblicate. Tutti i controlli avvengono in questa pagina; non viene inviato nulla.',
    proof: 'La mia prova (JSON)',
    headers: 'Intestazioni degli snapshot (JSON pubblicato)',
    key: 'Chiave di pubblicazione (hex)',
    verify: 'Verifica',
    fingerprint: 'Impronta della chiave: {0}',
    signature: 'L’intestazione dello snapshot {0} è firmata con la chiave di pubblicazione',
    chain: 'Segue lo snapshot {0} nella catena pubblicata',
    chainFirst: 'È il primo snapshot della catena',
    inclusion: 'I miei saldi portano alla radice e ai totali pubblicati',
    balances: 'Inclusi nello snapshot {0} ({1}):',
    included: 'Verificato',
    failed: 'Non riuscito: {0}',
    noHeader: 'Nessuna intestazione per lo snapshot {0}',
    badJson: 'JSON non valido',
  },
  tr: {
    title: 'Rezerv kanıtı: bakiyemi doğrula',
    lead: 'Uygulamada indirdiğiniz kanıtı ve yayımlanan anlık görüntü başlıklarını yapıştırın. Tüm kontroller bu sayfada çalışır; hiçbir şey gönderilmez.',
    proof: 'Kanıtım (JSON)',
    headers: 'Anlık görüntü başlıkları (yayımlanan JSON)',
    key: 'Yayın anahtarı (hex)',
    verify: 'Doğrula',
    fingerprint: 'Anahtar parmak izi: {0}',
    signature: '{0} numaralı anlık görüntünün başlığı yayın anahtarıyla imzalanmış',
    chain: 'Yayımlanan zincirde {0} numaralı anlık görüntüden sonra geliyor',
    chainFirst: 'Zincirin ilk anlık görüntüsü',
    inclusion: 'Bakiyelerim yayımlanan köke ve toplamlara ulaşıyor',
    balances: '{0} numaralı anlık görüntüye ({1}) dahil olanlar:',
    included: 'Doğrulandı',
    failed: 'Başarısız: {0}',
    noHeader: '{0} numaralı anlık görüntünün başlığı yok',
    badJson: 'Geçerli bir JSON değil',
  },
};

function pickTexts(): Texts {
  const query = new URLSearchParams(location.search).get('lang');
  let stored: string | null = null;
  try {
    stored = localStorage.getItem('lang');
  } catch {
    // a page opened from disk may have no storage
  }
  const wanted = (query ?? stored ?? navigator.language ?? 'ja-JP').toLowerCase();
  if (wanted === 'zh-tw' || wanted === 'zh-hk') return TEXTS['zh-TW'] as Texts;
  return TEXTS[wanted.split('-')[0] as string] ?? (TEXTS.ja as Texts);
}

const t = pickTexts();
const fill = (text: string, ...values: (string | number)[]) =>
  values.reduce<string>((out, value, i) => out.replace(`{${i}}`, String(value)), text);
const byId = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

for (const element of document.querySelectorAll<HTMLElement>('[data-t]')) {
  element.textContent = t[element.dataset.t as keyof Texts];
}
document.title = t.title;

/** Formats atoms as a decimal amount (10^8 atoms per unit), exactly. */
function formatAtoms(atoms: bigint): string {
  const whole = atoms / 100_000_000n;
  const fraction = (atoms % 100_000_000n).toString().padStart(8, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : `${whole}`;
}

function parse<T>(text: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(t.badJson);
  }
}

function report(ok: boolean, text: string): void {
  const item = document.createElement('li');
  item.className = ok ? 'ok' : 'bad';
  item.textContent = `${ok ? '✓' : '✗'} ${text}`;
  byId('checks').append(item);
}

async function showFingerprint(): Promise<void> {
  const key = byId<HTMLInputElement>('key').value.trim();
  byId('fingerprint').textContent = /^[0-9a-f]{64}$/.test(key)
    ? fill(t.fingerprint, await keyFingerprint(key))
    : '';
}

async function run(): Promise<void> {
  byId('checks').replaceChildren();
  byId('balances').replaceChildren();
  try {
    const proof = parse<InclusionProof>(byId<HTMLTextAreaElement>('proof').value);
    const published = parse<SnapshotHeader[] | SnapshotHeader>(byId<HTMLTextAreaElement>('headers').value);
    const headers = (Array.isArray(published) ? published : [published]).sort(
      (a, b) => a.snapshot_id - b.snapshot_id,
    );
    const key = byId<HTMLInputElement>('key').value.trim();
    const at = headers.findIndex((h) => h.snapshot_id === proof.snapshot_id);
    const header = headers[at];
    if (!header) throw new Error(fill(t.noHeader, proof.snapshot_id));
    const previous = at > 0 ? headers[at - 1] : undefined;
    await verifyHeader(header, key);
    report(true, fill(t.signature, header.snapshot_id));
    if (previous) {
      await verifyHeader(header, key, previous);
      report(true, fill(t.chain, previous.snapshot_id));
    } else if (/^0{64}$/.test(header.prev)) {
      report(true, t.chainFirst);
    }
    const balances = await verifyProof(proof, header);
    report(true, t.inclusion);
    const caption = document.createElement('p');
    caption.textContent = fill(t.balances, header.snapshot_id, header.taken_at);
    const table = document.createElement('table');
    for (const [i, asset] of header.assets.entries()) {
      const row = table.insertRow();
      row.insertCell().textContent = asset;
      row.insertCell().textContent = formatAtoms(balances[i] as bigint);
    }
    byId('balances').append(caption, table);
    report(true, t.included);
  } catch (error) {
    report(
      false,
      fill(
        t.failed,
        error instanceof VerifyError ? `${error.reason}: ${error.message}` : (error as Error).message,
      ),
    );
  }
}

byId('verify').addEventListener('click', () => void run());
byId('key').addEventListener('input', () => void showFingerprint());
byId<HTMLInputElement>('proof-file').addEventListener('change', async (event) => {
  const file = (event.target as HTMLInputElement).files?.[0];
  if (file) byId<HTMLTextAreaElement>('proof').value = await file.text();
});

// why: served by Bourse, the page fills the published headers and key itself; saved to disk and
// opened offline, the fetch fails quietly and they are pasted instead.
if (location.protocol.startsWith('http')) {
  fetch('/apiv/por/snapshots')
    .then((response) => response.json())
    .then(async (answer: { code: number; data: { public_key: string; list: SnapshotHeader[] } }) => {
      if (answer.code !== 1000) return;
      if (!byId<HTMLTextAreaElement>('headers').value) {
        byId<HTMLTextAreaElement>('headers').value = JSON.stringify(answer.data.list, null, 1);
      }
      if (!byId<HTMLInputElement>('key').value) byId<HTMLInputElement>('key').value = answer.data.public_key;
      await showFingerprint();
    })
    .catch(() => {});
}
