/**
 * WeCom (企业微信) QR sign-in: the login page address the browser opens, and the exchange
 * of the code it returns for the WeCom user id through the WeCom server API:
 *   GET {base}/cgi-bin/gettoken?corpid&corpsecret       -> {errcode, access_token, expires_in}
 *   GET {base}/cgi-bin/auth/getuserinfo?access_token&code -> {errcode, userid | UserId}
 * The access token is kept until shortly before it expires.
 */
import type { Config } from '../config.ts';
import { providerFetch } from '../tracing/scope.ts';
import { wecomLoginUrl } from '../../shared/wecom.ts';
import { plainText } from '../../shared/text.ts';

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
      const res = await providerFetch('wecom', u, { signal: AbortSignal.timeout(10_000) });
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
    protected readonly config: ContactsConfig,
    private readonly now: () => number = Date.now,
  ) {}

  /** the secret whose access token the calls use (the contacts secret, else the app's) */
  protected secret(): string {
    return this.config.wecomContactSecret || this.config.wecomSecret;
  }

  get configured(): boolean {
    return !!this.config.wecomCorpId && !!this.secret();
  }

  protected async send(path: string, query: Record<string, string>, body?: unknown): Promise<Answer> {
    const u = new URL(path, this.config.wecomApiBase.replace(/\/?$/, '/'));
    for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
    try {
      const res = await providerFetch('wecom', u, {
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
    const a = await this.send('cgi-bin/gettoken', { corpid: this.config.wecomCorpId, corpsecret: this.secret() });
    if (a.errcode || !a.access_token) throw new WecomRefusal(a.errmsg || `errcode ${a.errcode}`, a.errcode);
    const lifetime = Math.max(60, Number(a.expires_in ?? 7200) - 300) * 1000;
    this.token = { value: a.access_token, until: this.now() + lifetime };
    return a.access_token;
  }

  /** One call with the access token; WeCom's answer when errcode is 0, else WecomRefusal. */
  protected async answer<T = Record<string, unknown>>(path: string, query: Record<string, string>, body?: unknown): Promise<T> {
    const token = await this.accessToken();
    const a = await this.send(path, { access_token: token, ...query }, body);
    // 40014 / 42001: the token went stale early; the next call gets a new one
    if (a.errcode === 40014 || a.errcode === 42001) this.token = null;
    if (a.errcode) throw new WecomRefusal(a.errmsg || `errcode ${a.errcode}`, a.errcode);
    if (typeof a !== 'object' || Array.isArray(a)) throw new WecomRefusal('企业微信返回的内容无法识别');
    return a as T;
  }

  private async checked(path: string, query: Record<string, string>, body?: unknown): Promise<void> {
    await this.answer(path, query, body);
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

/**
 * WeCom departments (通讯录部门) and the members of one, with the contacts secret:
 *   GET  {base}/cgi-bin/department/list?access_token[&id]      -> {department: [{id, name, parentid, order}]}
 *   POST {base}/cgi-bin/department/create?access_token  {name, parentid, order?}  -> {id}
 *   POST {base}/cgi-bin/department/update?access_token  {id, name?, parentid?, order?}
 *   GET  {base}/cgi-bin/department/delete?access_token&id
 *   GET  {base}/cgi-bin/user/list?access_token&department_id   -> {userlist: [{userid, name, mobile?, department}]}
 */
export interface WecomDepartment {
  id: number;
  name: string;
  /** 0 for WeCom's root department (id 1) */
  parentid: number;
  /** a larger order comes first among siblings (WeCom's rule) */
  order: number;
}

export interface WecomDeptMember {
  userid: string;
  name: string;
  mobile?: string;
  department: number[];
}

export interface WecomDirectory {
  readonly configured: boolean;
  listDepartments(): Promise<WecomDepartment[]>;
  createDepartment(d: { name: string; parentid: number; order?: number }): Promise<number>;
  updateDepartment(d: { id: number; name?: string; parentid?: number; order?: number }): Promise<void>;
  deleteDepartment(id: number): Promise<void>;
  listMembers(departmentId: number): Promise<WecomDeptMember[]>;
}

const int = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : null;
const str = (v: unknown, max: number): string | null => (typeof v === 'string' && v.length > 0 && v.length <= max ? v : null);
/** A member of an object in WeCom's answer; undefined when `o` is not an object. */
const member = (o: unknown, key: string): unknown =>
  typeof o === 'object' && o !== null ? (o as Record<string, unknown>)[key] : undefined;
/** An array in WeCom's answer; empty when `v` is not one. */
const list = (v: unknown): unknown[] => (Array.isArray(v) ? (v as unknown[]) : []);

export class WecomDirectoryApi extends WecomContactsApi implements WecomDirectory {
  async listDepartments(): Promise<WecomDepartment[]> {
    const a = await this.answer<{ department?: unknown }>('cgi-bin/department/list', {});
    if (!Array.isArray(a.department)) throw new WecomRefusal('企业微信返回的部门列表无法识别');
    const out: WecomDepartment[] = [];
    for (const d of a.department.slice(0, 100_000) as Array<Record<string, unknown>>) {
      const id = int(d?.id);
      const name = str(d?.name, 100);
      if (id === null || id < 1 || name === null) continue;
      out.push({ id, name, parentid: int(d.parentid) ?? 0, order: int(d.order) ?? 0 });
    }
    return out;
  }

  async createDepartment(d: { name: string; parentid: number; order?: number }): Promise<number> {
    const a = await this.answer<{ id?: unknown }>('cgi-bin/department/create', {}, d);
    const id = int(a.id);
    if (id === null || id < 1) throw new WecomRefusal('企业微信未返回新部门的ID');
    return id;
  }

  async updateDepartment(d: { id: number; name?: string; parentid?: number; order?: number }): Promise<void> {
    await this.answer('cgi-bin/department/update', {}, d);
  }

  async deleteDepartment(id: number): Promise<void> {
    await this.answer('cgi-bin/department/delete', { id: String(id) });
  }

  async listMembers(departmentId: number): Promise<WecomDeptMember[]> {
    const a = await this.answer<{ userlist?: unknown }>('cgi-bin/user/list', { department_id: String(departmentId) });
    if (!Array.isArray(a.userlist)) throw new WecomRefusal('企业微信返回的成员列表无法识别');
    const out: WecomDeptMember[] = [];
    for (const u of a.userlist.slice(0, 100_000) as Array<Record<string, unknown>>) {
      const userid = str(u?.userid, 64);
      if (userid === null) continue;
      const mobile = str(u.mobile, 20);
      out.push({
        userid,
        name: str(u.name, 64) ?? userid,
        ...(mobile ? { mobile } : {}),
        department: Array.isArray(u.department) ? u.department.map(int).filter((x) => x !== null) : [],
      });
    }
    return out;
  }
}

/**
 * One WeCom approval (审批单) by its number, with the app secret (WECOM_SECRET):
 *   POST {base}/cgi-bin/oa/getapprovaldetail?access_token  {sp_no}
 *     -> {info: {sp_no, sp_name, sp_status, apply_time, applyer: {userid}, sp_record: [{details: [{approver, speech, sp_status}]}],
 *         apply_data: {contents: [{control, title: [{text, lang}], value: {text?, new_number?}}]}, comments: [{comment_content}]}}
 * sp_status: 1 审批中, 2 已通过, 3 已驳回, 4 已撤销, 6 通过后撤销, 7 已删除, 10 已支付.
 */
export interface WecomApproval {
  spNo: string;
  spName: string;
  spStatus: number;
  applyTime: number | null;
  applicant: string | null;
  /** the values of the form's text and number controls, by their (Chinese) title */
  fields: Record<string, string>;
  /** the approvers' remarks and comments, oldest first */
  remarks: string[];
}

export interface WecomApprovals {
  readonly configured: boolean;
  approvalDetail(spNo: string): Promise<WecomApproval>;
}

export class WecomApprovalApi extends WecomContactsApi implements WecomApprovals {
  protected override secret(): string {
    return this.config.wecomSecret;
  }

  async approvalDetail(spNo: string): Promise<WecomApproval> {
    const a = await this.answer<{ info?: unknown }>('cgi-bin/oa/getapprovaldetail', {}, { sp_no: spNo });
    const info = a.info;
    const status = int(member(info, 'sp_status'));
    if (!info || typeof info !== 'object' || status === null) throw new WecomRefusal('企业微信返回的审批详情无法识别');
    const fields: Record<string, string> = {};
    for (const c of list(member(member(info, 'apply_data'), 'contents')).slice(0, 500)) {
      const titles = list(member(c, 'title'));
      const title =
        member(
          titles.find((t) => member(t, 'lang') === 'zh_CN'),
          'text',
        ) ?? member(titles[0], 'text');
      const value = member(member(c, 'value'), 'text') ?? member(member(c, 'value'), 'new_number');
      if (typeof title === 'string' && (typeof value === 'string' || typeof value === 'number'))
        fields[title.trim()] = String(value).trim();
    }
    const remarks: string[] = [];
    for (const r of list(member(info, 'sp_record')).slice(0, 100)) {
      for (const d of list(member(r, 'details')).slice(0, 100)) {
        const speech = member(d, 'speech');
        if (typeof speech === 'string' && speech.trim()) remarks.push(speech.trim());
      }
    }
    for (const c of list(member(info, 'comments')).slice(0, 100)) {
      const comment = member(c, 'comment_content');
      if (typeof comment === 'string' && comment.trim()) remarks.push(comment.trim());
    }
    const spName = member(info, 'sp_name');
    const applicant = member(member(info, 'applyer'), 'userid');
    return {
      spNo: plainText(member(info, 'sp_no') ?? spNo),
      spName: typeof spName === 'string' ? spName.slice(0, 100) : '',
      spStatus: status,
      applyTime: int(member(info, 'apply_time')),
      applicant: typeof applicant === 'string' ? applicant.slice(0, 64) : null,
      fields,
      remarks,
    };
  }
}
