/**
 * API errors: every failure answers {status, message, timestamp} with the HTTP status equal
 * to `status`. Throw ApiError (or a helper below) anywhere in a route; the app's error handler
 * turns it into that shape. Unknown errors become a 500 without internals.
 */
export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    /** extra fields for the answer, e.g. import row errors */
    public details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, details?: Record<string, unknown>) => new ApiError(400, message, details);
export const unauthorized = (message = '登录状态已过期，请重新登录') => new ApiError(401, message);
export const forbidden = (message = '没有权限，请联系管理员') => new ApiError(403, message);
export const notFound = (message = '数据不存在') => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);

export function errorBody(status: number, message: string, details?: Record<string, unknown>) {
  return { status, message, timestamp: new Date().toISOString(), ...details };
}
