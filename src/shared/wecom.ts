/** WeCom (企业微信) web login page address for a QR sign-in, built the same way on both sides. */
export function wecomLoginUrl(base: string, p: { appid: string; agentid: string; state: string; redirectUri: string }): string {
  const u = new URL(base);
  u.searchParams.set('login_type', 'CorpApp');
  u.searchParams.set('appid', p.appid);
  u.searchParams.set('agentid', p.agentid);
  u.searchParams.set('redirect_uri', p.redirectUri);
  u.searchParams.set('state', p.state);
  return u.toString();
}
