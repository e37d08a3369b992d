/** Who a request acted as, for the operation log: recorded by sign-in (auth/acting-user.ts). */
export { logUserOf, setLogUser } from '../../auth/acting-user.ts';
