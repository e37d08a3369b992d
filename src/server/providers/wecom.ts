/**
 * WeCom (企业微信) QR sign-in: the login page address the browser opens, and the exchange
 * of the code it returns for the WeCom user id through the WeCom server API:
 *   GET {base}/cgi-bin/gettoken?corpid&corpsecret       -> {errcode, access_token, expires_in}
 *   GET {base}/cgi-bin/auth/getuserinfo?access_token&code -> {errcode, userid | UserId}
 * The access token is kept until shortly before it expires.
 */
import type { Config } from '../config.ts';
import { wecomLoginUrl } from '../../shared/wecom.ts';

export class WecomError extends Error {}

export interface WecomClient {
  readonly configured: boolean;
  readonly appid: string;
  readonly agentid: string;
  /** WeCom's login page for a state and the address WeCom sends the browser back to */
  loginUrl(state: string, redirectUri: string): string;
  /** the WeCom user id of a sign-in code; throws WecomError when WeCom refuses */
  userIdOf(code: string): Promise<string>;
}

type Answer = { errcode?: number; errmsg?: string; access_token?: string; expires_in?: number; userid?: string; UserId?: string };

export class WecomApi implements WecomClient {
  private token: { value: string; until: number } | null = null;
  constructor(
    private readonly config: Pick<Config, 'wecomCorpId' | 'wecomAgentId' | 'wecomSecret' | 'wecomApiBase' | 'wecomLoginUrl'>,
    private readonly now: () => number = Date.now,
  ) {}

  get configured(): boolean {
    return !!this.config.wecomCorpId;
  }
  get appid(): string {
    return this.config.wecomCorpId;
  }
  get agentid(): string {
    return this.config.wecomAgentId;
  }

  loginUrl(state: string, redirectUri: string): string {
    return wecomLoginUrl(this.config.wecomLoginUrl, { appid: this.appid, agentid: this.agentid, state, redirectUri });
  }

  private async call(path: string, query: Record<string, string>): Promise<Answer> {
    const u = new URL(path, this.config.wecomApiBase.replace(/\/?$/, '/'));
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
    let answer: Answer;
    try {
      const res = await fetch(u, { signal: AbortSignal.timeout(10_000) });
      answer = (await res.json()) as Answer;
    } catch (err) {
      throw new WecomError(`WeCom unreachable: ${(err as Error).message}`);
    }
    return answer ?? {};
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > this.now()) return this.token.value;
    const a = await this.call('cgi-bin/gettoken', { corpid: this.config.wecomCorpId, corpsecret: this.config.wecomSecret });
    if (a.errcode || !a.access_token) throw new WecomError(`WeCom token refused: ${a.errcode} ${a.errmsg ?? ''}`);
    const lifetime = Math.max(60, Number(a.expires_in ?? 7200) - 300) * 1000;
    this.token = { value: a.access_token, until: this.now() + lifetime };
    return a.access_token;
  }

  async userIdOf(code: string): Promise<string> {
    const token = await this.accessToken();
    const a = await this.call('cgi-bin/auth/getuserinfo', { access_token: token, code });
    // 40014 / 42001: the token went stale early; forget it so that the next sign-in gets a new one
    if (a.errcode === 40014 || a.errcode === 42001) this.token = null;
    const userId = a.userid ?? a.UserId;
    if (a.errcode || !userId) throw new WecomError(`WeCom code refused: ${a.errcode} ${a.errmsg ?? ''}`);
    return userId;
  }
}

/**
 * WeCom member management (通讯录成员) for the staff roster, with the contacts secret
 * (WECOM_CONTACT_SECRET, else WECOM_SECRET); its own access token, kept like the sign-in one:
 *   POST {base}/cgi-bin/user/create?access_token   {userid, name, mobile, gender, position, email, department}
 *   POST {base}/cgi-bin/user/update?access_token   {userid, ...changed fields, biz_mail?, avatar_mediaid?}
 *   GET  {base}/cgi-bin/user/delete?access_token&userid
 * Every refusal (errcode not 0) or an unreachable server throws WecomRefusal with WeCom's errmsg.
 */
export interface WecomMember {
  userid: string;
  name?: string;
  mobile?: string;
  /** 1 male, 2 female (WeCom's codes) */
  gender?: '1' | '2';
  position?: string;
  email?: string;
  /** WeCom department ids; a new member goes into the root department (1) */
  department?: number[];
  biz_mail?: string;
  avatar_mediaid?: string;
}

export class WecomRefusal extends Error {
  constructor(
    /** WeCom's own message (or why it could not be reached) */
    public readonly errmsg: string,
    public readonly errcode?: number,
  ) {
    super(errmsg);
  }
}

export interface WecomContacts {
  readonly configured: boolean;
  createMember(member: WecomMember): Promise<void>;
  updateMember(member: WecomMember): Promise<void>;
  deleteMember(userid: string): Promise<void>;
}

type ContactsConfig = Pick<Config, 'wecomCorpId' | 'wecomSecret' | 'wecomContactSecret' | 'wecomApiBase'>;

export class WecomContactsApi implements WecomContacts {
  private token: { value: string; until: number } | null = null;
  constructor(
    private readonly config: ContactsConfig,
    private readonly now: () => number = Date.now,
  ) {}

  get configured(): boolean {
    return !!this.config.wecomCorpId && !!(this.config.wecomContactSecret || this.config.wecomSecret);
  }

  private async send(path: string, query: Record<string, string>, body?: unknown): Promise<Answer> {
    const u = new URL(path, this.config.wecomApiBase.replace(/\/?$/, '/'));
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
    try {
      const res = await fetch(u, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? undefined : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(10_000),
      });
      return ((await res.json()) as Answer) ?? {};
    } catch (err) {
      throw new WecomRefusal(`无法连接企业微信（${(err as Error).message}）`);
    }
  }

  private async accessToken(): Promise<string> {
    if (this.token && this.token.until > this.now()) return this.token.value;
    const secret = this.config.wecomContactSecret || this.config.wecomSecret;
    const a = await this.send('cgi-bin/gettoken', { corpid: this.config.wecomCorpId, corpsecret: secret });
    if (a.errcode || !a.access_token) throw new WecomRefusal(a.errmsg || `errcode ${a.errcode}`, a.errcode);
    const lifetime = Math.max(60, Number(a.expires_in ?? 7200) - 300) * 1000;
    this.token = { value: a.access_token, until: this.now() + lifetime };
    return a.access_token;
  }

  private async checked(path: string, query: Record<string, string>, body?: unknown): Promise<void> {
    const token = await this.accessToken();
    const a = await this.send(path, { access_token: token, ...query }, body);
    // 40014 / 42001: the token went stale early; the next call gets a new one
    if (a.errcode === 40014 || a.errcode === 42001) this.token = null;
    if (a.errcode) throw new WecomRefusal(a.errmsg || `errcode ${a.errcode}`, a.errcode);
  }

  createMember(member: WecomMember): Promise<void> {
    return this.checked('cgi-bin/user/create', {}, { department: [1], ...member });
  }

  updateMember(member: WecomMember): Promise<void> {
    return this.checked('cgi-bin/user/update', {}, member);
  }

  deleteMember(userid: string): Promise<void> {
    return this.checked('cgi-bin/user/delete', { userid });
  }
}
