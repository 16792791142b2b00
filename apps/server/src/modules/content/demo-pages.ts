import type { DemoContentItem } from './demo.ts';

/**
 * The legal and reference pages a demo platform shows (spec §1): privacy policy, terms of
 * service and whitepaper, in all nine languages. An operator replaces them with their own texts
 * in the back office; a new terms text is a new version customers accept.
 */
export const DEMO_PAGES: readonly DemoContentItem[] = [
  {
    kind: 'page',
    slug: 'terms',
    pinned: false,
    ageHours: 48,
    texts: {
      'ja-JP': {
        title: '利用規約',
        body: '<p>本規約は Bourse のご利用条件を定めます。口座を開設することで、お住まいの地域で成年に達しており、デジタル資産サービスの利用がその地域で合法であることを確認したものとみなされます。</p><p>デジタル資産の取引には高いリスクがあります。価格は大きく変動し、投じた資金をすべて失う可能性があります。約定した注文、契約、申込および出金は取り消せません。</p><p>ログインパスワード、出金パスワード、二段階認証コードはご自身で秘密に保ってください。当社がそれらを尋ねることはありません。当社は法令の遵守または不正防止のために口座を停止することがあり、法令が許す範囲でその理由をお知らせします。</p><p>これはデモ環境です。残高は価値のない練習用の資金です。</p>',
      },
      'en-US': {
        title: 'Terms of service',
        body: '<p>These terms govern your use of Bourse. By opening an account you confirm that you are of legal age where you live and that using a digital-asset service is lawful there.</p><p>Trading digital assets carries a high risk: prices can move sharply and you may lose all the money you commit. Orders, contracts, subscriptions and withdrawals are final once executed.</p><p>Keep your login password, withdrawal password and two-factor codes secret; we never ask for them. We may suspend an account to comply with the law or to stop fraud, and we tell you why where the law allows.</p><p>This is a demo platform: its balances are practice money with no value.</p>',
      },
      'zh-CN': {
        title: '服务条款',
        body: '<p>本条款规定您使用 Bourse 的条件。开立账户即表示您确认已达到所在地的法定年龄，且在当地使用数字资产服务是合法的。</p><p>数字资产交易风险很高：价格可能剧烈波动，您可能损失投入的全部资金。订单、合约、申购和提现一经执行即不可撤销。</p><p>请妥善保管您的登录密码、提现密码和双重验证码；我们绝不会向您索取。为遵守法律或阻止欺诈，我们可能暂停账户，并在法律允许的范围内告知原因。</p><p>这是演示平台：其中的余额是没有价值的练习资金。</p>',
      },
      'zh-TW': {
        title: '服務條款',
        body: '<p>本條款規範您使用 Bourse 的條件。開立帳戶即表示您確認已達居住地的法定年齡，且在當地使用數位資產服務是合法的。</p><p>數位資產交易風險很高：價格可能劇烈波動，您可能損失投入的全部資金。訂單、合約、申購與提領一經執行即不可撤銷。</p><p>請妥善保管您的登入密碼、提領密碼與雙重驗證碼；我們絕不會向您索取。為遵守法律或阻止詐騙，我們可能暫停帳戶，並在法律允許的範圍內告知原因。</p><p>這是示範平台：其中的餘額是沒有價值的練習資金。</p>',
      },
      'ko-KR': {
        title: '서비스 이용약관',
        body: '<p>본 약관은 Bourse 이용 조건을 정합니다. 계정을 개설하면 거주지에서 성년에 이르렀고 그곳에서 디지털 자산 서비스 이용이 합법임을 확인하는 것입니다.</p><p>디지털 자산 거래는 위험이 높습니다. 가격이 급격히 변할 수 있으며 투입한 자금을 모두 잃을 수 있습니다. 체결된 주문, 계약, 청약 및 출금은 취소할 수 없습니다.</p><p>로그인 비밀번호, 출금 비밀번호, 2단계 인증 코드는 비밀로 지키십시오. 당사는 이를 절대 묻지 않습니다. 당사는 법령 준수나 사기 방지를 위해 계정을 정지할 수 있으며, 법이 허용하는 범위에서 그 이유를 알려 드립니다.</p><p>이곳은 데모 플랫폼이며, 잔액은 가치가 없는 연습용 자금입니다.</p>',
      },
      'fr-FR': {
        title: 'Conditions d’utilisation',
        body: '<p>Les présentes conditions régissent votre utilisation de Bourse. En ouvrant un compte, vous confirmez être majeur dans votre pays de résidence et que l’usage d’un service d’actifs numériques y est légal.</p><p>La négociation d’actifs numériques comporte un risque élevé : les prix peuvent varier fortement et vous pouvez perdre tout l’argent engagé. Les ordres, contrats, souscriptions et retraits sont définitifs une fois exécutés.</p><p>Gardez secrets votre mot de passe de connexion, votre mot de passe de retrait et vos codes à deux facteurs ; nous ne les demandons jamais. Nous pouvons suspendre un compte pour respecter la loi ou stopper une fraude, et nous vous en donnons la raison lorsque la loi le permet.</p><p>Ceci est une plateforme de démonstration : ses soldes sont de l’argent d’entraînement sans valeur.</p>',
      },
      'de-DE': {
        title: 'Nutzungsbedingungen',
        body: '<p>Diese Bedingungen regeln Ihre Nutzung von Bourse. Mit der Eröffnung eines Kontos bestätigen Sie, dass Sie an Ihrem Wohnort volljährig sind und dass die Nutzung eines Dienstes für digitale Vermögenswerte dort erlaubt ist.</p><p>Der Handel mit digitalen Vermögenswerten ist sehr riskant: Preise können stark schwanken, und Sie können das gesamte eingesetzte Geld verlieren. Ausgeführte Orders, Kontrakte, Zeichnungen und Auszahlungen sind endgültig.</p><p>Halten Sie Ihr Login-Passwort, Ihr Auszahlungspasswort und Ihre Zwei-Faktor-Codes geheim; wir fragen nie danach. Wir können ein Konto sperren, um das Gesetz einzuhalten oder Betrug zu stoppen, und nennen Ihnen den Grund, soweit das Gesetz es erlaubt.</p><p>Dies ist eine Demo-Plattform: Ihre Guthaben sind Übungsgeld ohne Wert.</p>',
      },
      'it-IT': {
        title: 'Termini di servizio',
        body: '<p>Questi termini regolano l’uso di Bourse. Aprendo un conto confermi di essere maggiorenne nel luogo in cui vivi e che lì l’uso di un servizio di asset digitali è lecito.</p><p>Il trading di asset digitali comporta un rischio elevato: i prezzi possono variare bruscamente e puoi perdere tutto il denaro impegnato. Ordini, contratti, sottoscrizioni e prelievi eseguiti sono definitivi.</p><p>Mantieni segreti la password di accesso, la password di prelievo e i codici a due fattori; non te li chiederemo mai. Possiamo sospendere un conto per rispettare la legge o fermare una frode, e te ne diciamo il motivo quando la legge lo consente.</p><p>Questa è una piattaforma dimostrativa: i saldi sono denaro di prova senza valore.</p>',
      },
      'tr-TR': {
        title: 'Hizmet şartları',
        body: '<p>Bu şartlar Bourse kullanımınızı düzenler. Hesap açarak yaşadığınız yerde reşit olduğunuzu ve orada bir dijital varlık hizmetini kullanmanın yasal olduğunu onaylarsınız.</p><p>Dijital varlık alım satımı yüksek risk taşır: fiyatlar sert biçimde değişebilir ve yatırdığınız paranın tamamını kaybedebilirsiniz. Gerçekleşen emirler, sözleşmeler, abonelikler ve çekimler kesindir.</p><p>Giriş şifrenizi, çekim şifrenizi ve iki adımlı kodlarınızı gizli tutun; bunları asla sormayız. Yasaya uymak veya dolandırıcılığı durdurmak için bir hesabı askıya alabiliriz ve yasanın izin verdiği ölçüde nedenini size bildiririz.</p><p>Bu bir demo platformudur: bakiyeleri değeri olmayan alıştırma parasıdır.</p>',
      },
    },
  },
  {
    kind: 'page',
    slug: 'privacy',
    pinned: false,
    ageHours: 48,
    texts: {
      'ja-JP': {
        title: 'プライバシーポリシー',
        body: '<p>当社はサービスに必要な情報のみを収集します。アカウント名、連絡先、本人確認のために提出された書類、ログインに使われたアドレスと端末です。</p><p>これらはアカウントの運用、マネーロンダリング対策上の義務の履行、不正からの保護のために使用し、販売することはありません。本人確認書類は公開ファイルとは別に保管され、コンプライアンス担当者のみが閲覧します。</p><p>保管の法的義務がない範囲で、ご自身のデータの写しの提供または削除を請求できます。</p>',
      },
      'en-US': {
        title: 'Privacy policy',
        body: '<p>We collect only what the service needs: your account name, your contact details, the identity documents you submit for verification, and the addresses and devices you sign in from.</p><p>We use them to run your account, to meet our anti-money-laundering duties and to protect you from fraud. We never sell them. Identity documents are stored apart from public files and seen only by compliance staff.</p><p>You may ask for a copy of your data, or for its deletion where no legal duty to keep it applies.</p>',
      },
      'zh-CN': {
        title: '隐私政策',
        body: '<p>我们只收集服务所需的信息：您的账户名、联系方式、为实名认证提交的证件，以及您登录时使用的地址和设备。</p><p>我们使用这些信息来运营您的账户、履行反洗钱义务并保护您免受欺诈，绝不出售。身份证件与公开文件分开存放，仅合规人员可查看。</p><p>在没有法定保存义务的情况下，您可以要求获取您的数据副本或删除数据。</p>',
      },
      'zh-TW': {
        title: '隱私權政策',
        body: '<p>我們只蒐集服務所需的資訊：您的帳戶名稱、聯絡方式、為實名認證提交的證件，以及您登入時使用的位址與裝置。</p><p>我們使用這些資訊來營運您的帳戶、履行反洗錢義務並保護您免於詐騙，絕不出售。身分證件與公開檔案分開存放，僅法遵人員可檢視。</p><p>在沒有法定保存義務的情況下，您可以要求取得您的資料副本或刪除資料。</p>',
      },
      'ko-KR': {
        title: '개인정보 처리방침',
        body: '<p>당사는 서비스에 필요한 정보만 수집합니다. 계정 이름, 연락처, 본인 인증을 위해 제출한 신분 서류, 로그인에 사용한 주소와 기기입니다.</p><p>이 정보는 계정 운영, 자금세탁방지 의무 이행, 사기로부터의 보호에 사용하며 절대 판매하지 않습니다. 신분 서류는 공개 파일과 분리해 보관하며 컴플라이언스 담당자만 열람합니다.</p><p>보관할 법적 의무가 없는 경우 본인 데이터의 사본 제공이나 삭제를 요청할 수 있습니다.</p>',
      },
      'fr-FR': {
        title: 'Politique de confidentialité',
        body: '<p>Nous ne collectons que ce dont le service a besoin : votre nom de compte, vos coordonnées, les pièces d’identité que vous soumettez pour vérification, ainsi que les adresses et appareils depuis lesquels vous vous connectez.</p><p>Nous les utilisons pour gérer votre compte, remplir nos obligations de lutte contre le blanchiment et vous protéger de la fraude. Nous ne les vendons jamais. Les pièces d’identité sont conservées à part des fichiers publics et consultées uniquement par l’équipe conformité.</p><p>Vous pouvez demander une copie de vos données, ou leur suppression lorsqu’aucune obligation légale de conservation ne s’applique.</p>',
      },
      'de-DE': {
        title: 'Datenschutzerklärung',
        body: '<p>Wir erheben nur, was der Dienst braucht: Ihren Kontonamen, Ihre Kontaktdaten, die Ausweisdokumente, die Sie zur Verifizierung einreichen, sowie die Adressen und Geräte, von denen Sie sich anmelden.</p><p>Wir nutzen sie, um Ihr Konto zu führen, unsere Pflichten zur Geldwäscheprävention zu erfüllen und Sie vor Betrug zu schützen. Wir verkaufen sie nie. Ausweisdokumente werden getrennt von öffentlichen Dateien gespeichert und nur vom Compliance-Team eingesehen.</p><p>Sie können eine Kopie Ihrer Daten verlangen oder deren Löschung, soweit keine gesetzliche Aufbewahrungspflicht besteht.</p>',
      },
      'it-IT': {
        title: 'Informativa sulla privacy',
        body: '<p>Raccogliamo solo ciò che serve al servizio: il nome del conto, i tuoi recapiti, i documenti d’identità che invii per la verifica e gli indirizzi e i dispositivi da cui accedi.</p><p>Li usiamo per gestire il tuo conto, adempiere agli obblighi antiriciclaggio e proteggerti dalle frodi. Non li vendiamo mai. I documenti d’identità sono conservati separatamente dai file pubblici e visti solo dal personale di compliance.</p><p>Puoi chiedere una copia dei tuoi dati, o la loro cancellazione quando non si applica alcun obbligo legale di conservarli.</p>',
      },
      'tr-TR': {
        title: 'Gizlilik politikası',
        body: '<p>Yalnızca hizmetin ihtiyaç duyduğu bilgileri toplarız: hesap adınız, iletişim bilgileriniz, doğrulama için gönderdiğiniz kimlik belgeleri ve giriş yaptığınız adresler ile cihazlar.</p><p>Bunları hesabınızı yürütmek, kara para aklamayı önleme yükümlülüklerimizi yerine getirmek ve sizi dolandırıcılıktan korumak için kullanırız. Asla satmayız. Kimlik belgeleri herkese açık dosyalardan ayrı saklanır ve yalnızca uyum ekibi tarafından görülür.</p><p>Verilerinizin bir kopyasını ya da saklama yükümlülüğü bulunmadığında silinmesini isteyebilirsiniz.</p>',
      },
    },
  },
  {
    kind: 'page',
    slug: 'whitepaper',
    pinned: false,
    ageHours: 48,
    texts: {
      'ja-JP': {
        title: 'ホワイトペーパー',
        body: '<p>Bourse は、その主張を検証できるように作られた取引所です。すべての残高は複式簿記の台帳に記録され、金額は正確な整数単位で扱われ、価格は板と複数の公開取引所の中央値による指数からのみ決まります。</p><p>注文は価格・時間優先の決定的なエンジンで約定され、各バッチはお客様に通知される前にデータベースへ確定されます。ユーザーごとのマークル包含証明付きの準備金証明により、ご自身の残高が裏付けられていることを確認できます。</p>',
      },
      'en-US': {
        title: 'Whitepaper',
        body: '<p>Bourse is an exchange built so that its claims can be checked. Every balance lives in a double-entry ledger, money is kept in exact integer units, and prices come only from the order book and a median index of public venues.</p><p>Orders are matched by a deterministic engine in price-time priority, and every batch is committed to the database before anyone is told. Proof of reserves with per-user Merkle inclusion proofs lets each customer verify that their balance is covered.</p>',
      },
      'zh-CN': {
        title: '白皮书',
        body: '<p>Bourse 是一个让其承诺可以被验证的交易所。所有余额都记录在复式记账的账本中，金额以精确的整数单位保存，价格仅来自订单簿和多个公开交易场所的中位数指数。</p><p>订单由确定性的撮合引擎按价格、时间优先成交，每一批次在通知任何人之前都会先提交到数据库。带有逐用户默克尔包含证明的储备金证明，让每位客户都能验证自己的余额有足额覆盖。</p>',
      },
      'zh-TW': {
        title: '白皮書',
        body: '<p>Bourse 是一個讓其承諾可以被驗證的交易所。所有餘額都記錄於複式記帳的帳本，金額以精確的整數單位保存，價格僅來自訂單簿與多個公開交易場所的中位數指數。</p><p>訂單由確定性的撮合引擎依價格、時間優先成交，每一批次在通知任何人之前都會先寫入資料庫。附有逐用戶默克爾包含證明的儲備金證明，讓每位客戶都能驗證自己的餘額獲得足額覆蓋。</p>',
      },
      'ko-KR': {
        title: '백서',
        body: '<p>Bourse는 자신의 주장을 검증할 수 있도록 만든 거래소입니다. 모든 잔액은 복식부기 원장에 기록되고, 금액은 정확한 정수 단위로 관리되며, 가격은 호가창과 여러 공개 거래소의 중앙값 지수에서만 나옵니다.</p><p>주문은 가격·시간 우선의 결정적 엔진으로 체결되며, 모든 배치는 누구에게 알리기 전에 데이터베이스에 확정됩니다. 사용자별 머클 포함 증명이 있는 준비금 증명으로 고객은 자신의 잔액이 충당되어 있는지 검증할 수 있습니다.</p>',
      },
      'fr-FR': {
        title: 'Livre blanc',
        body: '<p>Bourse est une plateforme d’échange conçue pour que ses affirmations puissent être vérifiées. Chaque solde est tenu dans un grand livre en partie double, l’argent est compté en unités entières exactes, et les prix ne viennent que du carnet d’ordres et d’un indice médian de places publiques.</p><p>Les ordres sont appariés par un moteur déterministe selon la priorité prix-temps, et chaque lot est enregistré en base avant que quiconque en soit informé. La preuve de réserves, avec une preuve d’inclusion de Merkle par utilisateur, permet à chaque client de vérifier que son solde est couvert.</p>',
      },
      'de-DE': {
        title: 'Whitepaper',
        body: '<p>Bourse ist eine Börse, deren Aussagen sich überprüfen lassen. Jedes Guthaben steht in einem doppelten Hauptbuch, Geld wird in exakten ganzzahligen Einheiten geführt, und Preise stammen nur aus dem Orderbuch und einem Median-Index öffentlicher Handelsplätze.</p><p>Orders werden von einer deterministischen Engine nach Preis-Zeit-Priorität zusammengeführt, und jeder Stapel wird in der Datenbank festgeschrieben, bevor jemand davon erfährt. Der Reservenachweis mit Merkle-Einschlussbeweisen pro Nutzer lässt jeden Kunden prüfen, dass sein Guthaben gedeckt ist.</p>',
      },
      'it-IT': {
        title: 'Whitepaper',
        body: '<p>Bourse è un exchange costruito perché le sue affermazioni si possano verificare. Ogni saldo è tenuto in un registro a partita doppia, il denaro è contato in unità intere esatte e i prezzi provengono solo dal book degli ordini e da un indice mediano di piazze pubbliche.</p><p>Gli ordini sono abbinati da un motore deterministico con priorità prezzo-tempo, e ogni lotto è registrato nel database prima che chiunque ne sia informato. La prova delle riserve, con prove di inclusione Merkle per utente, consente a ogni cliente di verificare che il proprio saldo sia coperto.</p>',
      },
      'tr-TR': {
        title: 'Teknik doküman',
        body: '<p>Bourse, iddiaları doğrulanabilsin diye kurulmuş bir borsadır. Her bakiye çift taraflı bir defterde tutulur, para tam sayı birimlerle kesin olarak saklanır ve fiyatlar yalnızca emir defterinden ve herkese açık piyasaların medyan endeksinden gelir.</p><p>Emirler fiyat-zaman önceliğiyle belirlenimci bir motorda eşleştirilir ve her parti, kimseye bildirilmeden önce veritabanına kaydedilir. Kullanıcı başına Merkle dahil olma kanıtlı rezerv kanıtı, her müşterinin bakiyesinin karşılandığını doğrulamasını sağlar.</p>',
      },
    },
  },
];
