import type { ContentKind } from '../../platform/schema.ts';

export interface DemoContentItem {
  kind: ContentKind;
  slug: string;
  pinned: boolean;
  /** How long before the first start it counts as published. */
  ageHours: number;
  texts: Record<string, { title: string; body: string }>;
}

/** What a demo platform shows on its first start: two announcements (one pinned), the about-us and
 * MSB pages, and three help articles, in all nine languages. `ageHours` places the publish time. */
export const DEMO_CONTENT: readonly DemoContentItem[] = [
  {
    kind: 'announcement',
    slug: '',
    pinned: true,
    ageHours: 2,
    texts: {
      'ja-JP': {
        title: 'Bourse デモ版へようこそ',
        body: '<p>これはデモ環境です。残高と相場はシミュレーションで、実際の資産は動きません。</p><p>現物取引、期間契約、資産管理、本人確認を自由にお試しください。</p>',
      },
      'en-US': {
        title: 'Welcome to the Bourse demo',
        body: '<p>This is a demo environment. Balances and prices are simulated; no real assets move.</p><p>Try spot trading, timed contracts, the wallet and identity verification freely.</p>',
      },
      'zh-CN': {
        title: '欢迎使用 Bourse 演示版',
        body: '<p>这是演示环境。余额和行情均为模拟，不涉及真实资产。</p><p>欢迎随意体验现货交易、期限合约、钱包和实名认证。</p>',
      },
      'zh-TW': {
        title: '歡迎使用 Bourse 示範版',
        body: '<p>這是示範環境。餘額與行情皆為模擬，不涉及真實資產。</p><p>歡迎隨意體驗現貨交易、期限合約、錢包與實名認證。</p>',
      },
      'ko-KR': {
        title: 'Bourse 데모에 오신 것을 환영합니다',
        body: '<p>데모 환경입니다. 잔액과 시세는 모의 데이터이며 실제 자산은 이동하지 않습니다.</p><p>현물 거래, 기간 계약, 지갑, 실명 인증을 자유롭게 체험해 보세요.</p>',
      },
      'fr-FR': {
        title: 'Bienvenue dans la démo Bourse',
        body: '<p>Ceci est un environnement de démonstration. Soldes et cours sont simulés ; aucun actif réel ne bouge.</p><p>Essayez librement le trading au comptant, les contrats à terme fixe, le portefeuille et la vérification d’identité.</p>',
      },
      'de-DE': {
        title: 'Willkommen in der Bourse-Demo',
        body: '<p>Dies ist eine Demo-Umgebung. Guthaben und Kurse sind simuliert; echte Vermögenswerte werden nicht bewegt.</p><p>Probieren Sie Spothandel, Laufzeitkontrakte, das Wallet und die Identitätsprüfung frei aus.</p>',
      },
      'it-IT': {
        title: 'Benvenuto nella demo di Bourse',
        body: '<p>Questo è un ambiente dimostrativo. Saldi e prezzi sono simulati; nessun asset reale viene spostato.</p><p>Prova liberamente il trading spot, i contratti a tempo, il portafoglio e la verifica dell’identità.</p>',
      },
      'tr-TR': {
        title: 'Bourse demosuna hoş geldiniz',
        body: '<p>Bu bir demo ortamıdır. Bakiyeler ve fiyatlar simüledir; gerçek varlık hareket etmez.</p><p>Spot işlem, vadeli sözleşmeler, cüzdan ve kimlik doğrulamayı özgürce deneyin.</p>',
      },
    },
  },
  {
    kind: 'announcement',
    slug: '',
    pinned: false,
    ageHours: 30,
    texts: {
      'ja-JP': {
        title: '二段階認証で口座を守りましょう',
        body: '<p>セキュリティセンターで認証アプリによる二段階認証を有効にすると、ログインと出金の際に6桁のコードが求められます。</p><p>フィッシング対策コードを設定すると、Bourse からのメールと通知にそのコードが表示されます。</p>',
      },
      'en-US': {
        title: 'Protect your account with two-factor codes',
        body: '<p>Turn on two-factor codes with an authenticator app in the security centre: login and withdrawals will then ask for a six-digit code.</p><p>Set an anti-phishing code and every e-mail and notification from Bourse will show it.</p>',
      },
      'zh-CN': {
        title: '使用双重验证保护您的账户',
        body: '<p>在安全中心用身份验证器应用开启双重验证后，登录和提现时需要输入6位验证码。</p><p>设置防钓鱼码后，Bourse 发送的每封邮件和通知都会显示该码。</p>',
      },
      'zh-TW': {
        title: '使用雙重驗證保護您的帳戶',
        body: '<p>在安全中心以驗證器應用程式開啟雙重驗證後，登入與提領時需要輸入6位驗證碼。</p><p>設定防釣魚碼後，Bourse 寄出的每封郵件與通知都會顯示該碼。</p>',
      },
      'ko-KR': {
        title: '2단계 인증으로 계정을 보호하세요',
        body: '<p>보안 센터에서 인증 앱으로 2단계 인증을 켜면 로그인과 출금 시 6자리 코드를 입력해야 합니다.</p><p>피싱 방지 코드를 설정하면 Bourse가 보내는 모든 이메일과 알림에 그 코드가 표시됩니다.</p>',
      },
      'fr-FR': {
        title: 'Protégez votre compte avec la double authentification',
        body: '<p>Activez la double authentification avec une application d’authentification dans le centre de sécurité : la connexion et les retraits demanderont un code à six chiffres.</p><p>Définissez un code anti-hameçonnage : chaque e-mail et chaque notification de Bourse l’affichera.</p>',
      },
      'de-DE': {
        title: 'Schützen Sie Ihr Konto mit Zwei-Faktor-Codes',
        body: '<p>Aktivieren Sie im Sicherheitscenter Zwei-Faktor-Codes mit einer Authenticator-App: Anmeldung und Auszahlungen verlangen dann einen sechsstelligen Code.</p><p>Legen Sie einen Anti-Phishing-Code fest, dann zeigt jede E-Mail und Benachrichtigung von Bourse ihn an.</p>',
      },
      'it-IT': {
        title: 'Proteggi il tuo account con i codici a due fattori',
        body: '<p>Attiva i codici a due fattori con un’app di autenticazione nel centro sicurezza: accesso e prelievi chiederanno un codice di sei cifre.</p><p>Imposta un codice anti-phishing e ogni e-mail e notifica di Bourse lo mostrerà.</p>',
      },
      'tr-TR': {
        title: 'Hesabınızı iki adımlı kodlarla koruyun',
        body: '<p>Güvenlik merkezinde bir kimlik doğrulama uygulamasıyla iki adımlı kodları açın: giriş ve çekimler altı haneli bir kod isteyecektir.</p><p>Bir kimlik avı önleme kodu belirleyin; Bourse’un her e-postası ve bildirimi bu kodu gösterecektir.</p>',
      },
    },
  },
  {
    kind: 'page',
    slug: 'aboutus',
    pinned: false,
    ageHours: 48,
    texts: {
      'ja-JP': {
        title: 'Bourse について',
        body: '<p>Bourse はデジタル資産の取引・運用サービスです。すべての残高は複式簿記の台帳で管理され、価格は板と指数フィードからのみ決まります。</p><p>準備金の証明は定期的に公開され、ご自身の残高が含まれていることを検証できます。</p>',
      },
      'en-US': {
        title: 'About Bourse',
        body: '<p>Bourse is a digital-asset trading and investment service. Every balance is kept in a double-entry ledger, and prices come only from the order book and the index feed.</p><p>Proof of reserves is published regularly, and you can verify that your own balance is included.</p>',
      },
      'zh-CN': {
        title: '关于 Bourse',
        body: '<p>Bourse 是数字资产交易与投资服务。所有余额均记录在复式记账的账本中，价格仅来自订单簿和指数行情。</p><p>我们定期发布储备金证明，您可以验证自己的余额已被包含在内。</p>',
      },
      'zh-TW': {
        title: '關於 Bourse',
        body: '<p>Bourse 是數位資產交易與投資服務。所有餘額皆記錄於複式記帳的帳本，價格僅來自訂單簿與指數行情。</p><p>我們定期發布儲備金證明，您可以驗證自己的餘額已被納入。</p>',
      },
      'ko-KR': {
        title: 'Bourse 소개',
        body: '<p>Bourse는 디지털 자산 거래 및 투자 서비스입니다. 모든 잔액은 복식부기 원장에 기록되며 가격은 호가창과 지수 피드에서만 결정됩니다.</p><p>준비금 증명은 정기적으로 공개되며, 본인의 잔액이 포함되어 있는지 직접 검증할 수 있습니다.</p>',
      },
      'fr-FR': {
        title: 'À propos de Bourse',
        body: '<p>Bourse est un service de négociation et d’investissement en actifs numériques. Chaque solde est tenu dans un grand livre en partie double, et les prix proviennent uniquement du carnet d’ordres et du flux d’indices.</p><p>La preuve de réserves est publiée régulièrement et vous pouvez vérifier que votre propre solde y figure.</p>',
      },
      'de-DE': {
        title: 'Über Bourse',
        body: '<p>Bourse ist ein Handels- und Anlagedienst für digitale Vermögenswerte. Jedes Guthaben wird in einem doppelten Hauptbuch geführt, Preise stammen nur aus dem Orderbuch und dem Index-Feed.</p><p>Der Reservenachweis wird regelmäßig veröffentlicht, und Sie können prüfen, dass Ihr eigenes Guthaben enthalten ist.</p>',
      },
      'it-IT': {
        title: 'Chi è Bourse',
        body: '<p>Bourse è un servizio di trading e investimento in asset digitali. Ogni saldo è tenuto in un registro a partita doppia e i prezzi provengono solo dal book degli ordini e dal feed degli indici.</p><p>La prova delle riserve è pubblicata regolarmente e puoi verificare che il tuo saldo sia incluso.</p>',
      },
      'tr-TR': {
        title: 'Bourse hakkında',
        body: '<p>Bourse bir dijital varlık alım satım ve yatırım hizmetidir. Her bakiye çift taraflı bir defterde tutulur; fiyatlar yalnızca emir defterinden ve endeks akışından gelir.</p><p>Rezerv kanıtı düzenli olarak yayımlanır ve kendi bakiyenizin dahil olduğunu doğrulayabilirsiniz.</p>',
      },
    },
  },
  {
    kind: 'page',
    slug: 'msb',
    pinned: false,
    ageHours: 48,
    texts: {
      'ja-JP': {
        title: 'MSB 登録について',
        body: '<p>これはデモ環境のため、MSB（送金サービス事業者）登録はありません。運営者は自らの登録番号と登録機関をここに掲載してください。</p>',
      },
      'en-US': {
        title: 'MSB registration',
        body: '<p>This is a demo environment and holds no MSB (money services business) registration. An operator publishes their own registration number and registering authority here.</p>',
      },
      'zh-CN': {
        title: 'MSB 注册',
        body: '<p>这是演示环境，不持有任何 MSB（货币服务业务）注册。运营方应在此公布其自身的注册编号和注册机构。</p>',
      },
      'zh-TW': {
        title: 'MSB 註冊',
        body: '<p>這是示範環境，未持有任何 MSB（貨幣服務業務）註冊。營運方應於此公布其自身的註冊編號與註冊機關。</p>',
      },
      'ko-KR': {
        title: 'MSB 등록',
        body: '<p>이 환경은 데모이며 MSB(송금 서비스 사업자) 등록이 없습니다. 운영자는 자신의 등록 번호와 등록 기관을 여기에 게시합니다.</p>',
      },
      'fr-FR': {
        title: 'Enregistrement MSB',
        body: '<p>Ceci est un environnement de démonstration sans aucun enregistrement MSB (entreprise de services monétaires). L’opérateur publie ici son propre numéro d’enregistrement et l’autorité qui l’a délivré.</p>',
      },
      'de-DE': {
        title: 'MSB-Registrierung',
        body: '<p>Dies ist eine Demo-Umgebung ohne MSB-Registrierung (Geldtransferdienstleister). Ein Betreiber veröffentlicht hier seine eigene Registrierungsnummer und die registrierende Behörde.</p>',
      },
      'it-IT': {
        title: 'Registrazione MSB',
        body: '<p>Questo è un ambiente dimostrativo e non possiede alcuna registrazione MSB (servizi monetari). L’operatore pubblica qui il proprio numero di registrazione e l’autorità che lo ha rilasciato.</p>',
      },
      'tr-TR': {
        title: 'MSB kaydı',
        body: '<p>Bu bir demo ortamıdır ve herhangi bir MSB (para hizmetleri işletmesi) kaydı yoktur. İşletmeci kendi kayıt numarasını ve kaydı yapan kurumu burada yayımlar.</p>',
      },
    },
  },
  {
    kind: 'help',
    slug: '',
    pinned: false,
    ageHours: 72,
    texts: {
      'ja-JP': {
        title: '入金の方法',
        body: '<p>資産タブで通貨を選び「入金」を押します。表示されたアドレスに送金し、送金証明の画像をアップロードしてください。</p><p>審査後に残高へ反映され、通知でお知らせします。</p>',
      },
      'en-US': {
        title: 'How to deposit',
        body: '<p>On the assets tab choose a coin and tap Deposit. Send to the address shown and upload an image of the transfer voucher.</p><p>Once reviewed, the amount is credited and a notification tells you.</p>',
      },
      'zh-CN': {
        title: '如何充值',
        body: '<p>在资产页选择币种并点击“充值”。向显示的地址转账，并上传转账凭证图片。</p><p>审核通过后金额入账，并会通知您。</p>',
      },
      'zh-TW': {
        title: '如何儲值',
        body: '<p>在資產頁選擇幣種並點選「儲值」。向顯示的地址轉帳，並上傳轉帳憑證圖片。</p><p>審核通過後金額入帳，並會通知您。</p>',
      },
      'ko-KR': {
        title: '입금 방법',
        body: '<p>자산 탭에서 코인을 선택하고 입금을 누르세요. 표시된 주소로 송금한 뒤 송금 증빙 이미지를 업로드하세요.</p><p>검토가 끝나면 금액이 입금되고 알림으로 알려 드립니다.</p>',
      },
      'fr-FR': {
        title: 'Comment déposer',
        body: '<p>Dans l’onglet des actifs, choisissez une monnaie et touchez Déposer. Envoyez à l’adresse affichée et téléversez une image du justificatif de virement.</p><p>Après vérification, le montant est crédité et une notification vous prévient.</p>',
      },
      'de-DE': {
        title: 'So zahlen Sie ein',
        body: '<p>Wählen Sie im Vermögens-Tab eine Münze und tippen Sie auf Einzahlen. Senden Sie an die angezeigte Adresse und laden Sie ein Bild des Überweisungsbelegs hoch.</p><p>Nach der Prüfung wird der Betrag gutgeschrieben und eine Benachrichtigung informiert Sie.</p>',
      },
      'it-IT': {
        title: 'Come depositare',
        body: '<p>Nella scheda degli asset scegli una moneta e tocca Deposita. Invia all’indirizzo mostrato e carica un’immagine della ricevuta del trasferimento.</p><p>Dopo la verifica l’importo viene accreditato e una notifica ti avvisa.</p>',
      },
      'tr-TR': {
        title: 'Nasıl para yatırılır',
        body: '<p>Varlıklar sekmesinde bir coin seçip Yatır’a dokunun. Gösterilen adrese gönderin ve transfer dekontunun görüntüsünü yükleyin.</p><p>İncelemeden sonra tutar hesabınıza geçer ve bir bildirim sizi haberdar eder.</p>',
      },
    },
  },
  {
    kind: 'help',
    slug: '',
    pinned: false,
    ageHours: 73,
    texts: {
      'ja-JP': {
        title: '本人確認について',
        body: '<p>ユーザータブの「本人確認」で書類の種類、氏名、国・地域、携帯番号、書類の表裏の画像を提出します。</p><p>画像は非公開で保管され、コンプライアンス担当者のみが閲覧できます。結果は通知でお知らせします。</p>',
      },
      'en-US': {
        title: 'About identity verification',
        body: '<p>Under Verification on the user tab, submit the document type, your real name, country or region, mobile number and images of the document’s front and back.</p><p>The images are stored privately and only compliance staff can view them. A notification tells you the result.</p>',
      },
      'zh-CN': {
        title: '关于实名认证',
        body: '<p>在用户页的“实名认证”中提交证件类型、真实姓名、国家或地区、手机号以及证件正反面图片。</p><p>图片私密保存，仅合规人员可查看。审核结果会通过通知告知您。</p>',
      },
      'zh-TW': {
        title: '關於實名認證',
        body: '<p>在使用者頁的「實名認證」中提交證件類型、真實姓名、國家或地區、手機號碼以及證件正反面圖片。</p><p>圖片私密保存，僅合規人員可查看。審核結果會透過通知告知您。</p>',
      },
      'ko-KR': {
        title: '실명 인증 안내',
        body: '<p>사용자 탭의 실명 인증에서 신분증 종류, 실명, 국가 또는 지역, 휴대폰 번호, 신분증 앞뒤 이미지를 제출하세요.</p><p>이미지는 비공개로 보관되며 컴플라이언스 담당자만 볼 수 있습니다. 결과는 알림으로 알려 드립니다.</p>',
      },
      'fr-FR': {
        title: 'À propos de la vérification d’identité',
        body: '<p>Dans Vérification, onglet utilisateur, indiquez le type de document, votre nom réel, le pays ou la région, le numéro de mobile et les images du recto et du verso.</p><p>Les images sont conservées en privé et seul le personnel de conformité peut les voir. Une notification vous donne le résultat.</p>',
      },
      'de-DE': {
        title: 'Zur Identitätsprüfung',
        body: '<p>Reichen Sie unter Verifizierung im Benutzer-Tab Dokumentart, Ihren echten Namen, Land oder Region, Mobilnummer sowie Bilder der Vorder- und Rückseite ein.</p><p>Die Bilder werden privat gespeichert und nur Compliance-Mitarbeiter können sie sehen. Eine Benachrichtigung teilt Ihnen das Ergebnis mit.</p>',
      },
      'it-IT': {
        title: 'Informazioni sulla verifica dell’identità',
        body: '<p>In Verifica, nella scheda utente, invia il tipo di documento, il tuo nome reale, paese o regione, numero di cellulare e le immagini del fronte e del retro.</p><p>Le immagini sono conservate privatamente e solo il personale di conformità può vederle. Una notifica ti comunica l’esito.</p>',
      },
      'tr-TR': {
        title: 'Kimlik doğrulama hakkında',
        body: '<p>Kullanıcı sekmesindeki Doğrulama bölümünde belge türünü, gerçek adınızı, ülke veya bölgeyi, cep numaranızı ve belgenin ön ve arka yüz görüntülerini gönderin.</p><p>Görüntüler gizli saklanır ve yalnızca uyum personeli görebilir. Sonucu bir bildirim size iletir.</p>',
      },
    },
  },
  {
    kind: 'help',
    slug: '',
    pinned: false,
    ageHours: 74,
    texts: {
      'ja-JP': {
        title: 'パスワードを忘れた場合',
        body: '<p>ログイン画面の「パスワードをお忘れですか」から、登録メールアドレスと画像認証コードを入力してください。</p><p>メールで届いた確認コードと新しいパスワードを入力すると再設定できます。再設定後24時間は出金できません。</p>',
      },
      'en-US': {
        title: 'If you forgot your password',
        body: '<p>From “Forgot password?” on the login screen, enter your registered e-mail address and the graphic code.</p><p>Enter the code from the e-mail and a new password to reset it. Withdrawals are blocked for 24 hours after a reset.</p>',
      },
      'zh-CN': {
        title: '忘记密码怎么办',
        body: '<p>在登录页点击“忘记密码”，输入注册邮箱和图形验证码。</p><p>输入邮件中的验证码和新密码即可重置。重置后24小时内不能提现。</p>',
      },
      'zh-TW': {
        title: '忘記密碼怎麼辦',
        body: '<p>在登入頁點選「忘記密碼」，輸入註冊信箱與圖形驗證碼。</p><p>輸入郵件中的驗證碼與新密碼即可重設。重設後24小時內無法提領。</p>',
      },
      'ko-KR': {
        title: '비밀번호를 잊은 경우',
        body: '<p>로그인 화면의 “비밀번호를 잊으셨나요?”에서 등록한 이메일 주소와 그림 인증 코드를 입력하세요.</p><p>이메일로 받은 코드와 새 비밀번호를 입력하면 재설정됩니다. 재설정 후 24시간 동안 출금이 제한됩니다.</p>',
      },
      'fr-FR': {
        title: 'Si vous avez oublié votre mot de passe',
        body: '<p>Depuis « Mot de passe oublié ? » sur l’écran de connexion, saisissez votre adresse e-mail enregistrée et le code graphique.</p><p>Saisissez le code reçu par e-mail et un nouveau mot de passe. Les retraits sont bloqués 24 heures après une réinitialisation.</p>',
      },
      'de-DE': {
        title: 'Wenn Sie Ihr Passwort vergessen haben',
        body: '<p>Geben Sie unter „Passwort vergessen?“ auf dem Anmeldebildschirm Ihre registrierte E-Mail-Adresse und den Bildcode ein.</p><p>Geben Sie den Code aus der E-Mail und ein neues Passwort ein. Nach dem Zurücksetzen sind Auszahlungen 24 Stunden gesperrt.</p>',
      },
      'it-IT': {
        title: 'Se hai dimenticato la password',
        body: '<p>Da «Password dimenticata?» nella schermata di accesso inserisci l’indirizzo e-mail registrato e il codice grafico.</p><p>Inserisci il codice ricevuto via e-mail e una nuova password. I prelievi sono bloccati per 24 ore dopo il ripristino.</p>',
      },
      'tr-TR': {
        title: 'Şifrenizi unuttuysanız',
        body: '<p>Giriş ekranındaki “Şifremi unuttum” bölümünden kayıtlı e-posta adresinizi ve görsel kodu girin.</p><p>E-postadaki kodu ve yeni bir şifre girerek sıfırlayın. Sıfırlamadan sonra 24 saat boyunca çekim yapılamaz.</p>',
      },
    },
  },
];
