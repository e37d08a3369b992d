import { describe, expect, it } from 'vitest';
import { loginRoute, parseHash, redirectTarget } from '../../src/web/route.ts';
import { routeGuard } from '../../src/web/Root.tsx';
import { splitResourceParam } from '../../src/web/staff/pages/ResourceParamRoute.tsx';

describe('hash routes', () => {
  it('parses path and query inside the hash', () => {
    const loc = parseHash('#/login?redirect=%2FsysQuestion%3Fa%3D1');
    expect(loc.path).toBe('/login');
    expect(loc.query.get('redirect')).toBe('/sysQuestion?a=1');
    expect(parseHash('').path).toBe('/');
  });

  it('sends unauthenticated visits to /login with a redirect, and signed-in /login to /', () => {
    expect(routeGuard(parseHash('#/sysQuestion?x=1'), false)).toBe('/login?redirect=%2FsysQuestion%3Fx%3D1');
    expect(routeGuard(parseHash('#/'), false)).toBe('/login');
    expect(routeGuard(parseHash('#/login'), true)).toBe('/');
    expect(routeGuard(parseHash('#/login'), false)).toBeNull();
    expect(routeGuard(parseHash('#/forgetpass'), false)).toBeNull();
    expect(routeGuard(parseHash('#/sysQuestion'), true)).toBeNull();
  });

  it('honours only local redirects; default /dashboard', () => {
    expect(redirectTarget(new URLSearchParams('redirect=%2FstaffunZp'))).toBe('/staffunZp');
    expect(redirectTarget(new URLSearchParams('redirect=https%3A%2F%2Fevil.example'))).toBe('/dashboard');
    expect(redirectTarget(new URLSearchParams('redirect=%2F%2Fevil.example'))).toBe('/dashboard');
    expect(redirectTarget(new URLSearchParams('redirect=%2Flogin'))).toBe('/dashboard');
    expect(redirectTarget(new URLSearchParams())).toBe('/dashboard');
    expect(loginRoute(parseHash('#/login'))).toBe('/login');
  });

  it('splits name:param routes', () => {
    expect(splitResourceParam('sysQuestion:销售模块')).toEqual({ name: 'sysQuestion', param: '销售模块' });
    expect(splitResourceParam('sysQuestion')).toBeNull();
    expect(splitResourceParam(':x')).toBeNull();
  });
});
