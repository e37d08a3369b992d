/**
 * Shapes the server tests read beyond the plain answers of tests/support/answers.ts: what a
 * websocket client receives. Typed as the tests read them: a field is there on the kinds of
 * message that carry it (`chats` on CONNECT and CLOSE, `code` on EXCEL, `id` on CHAT).
 */

/** one entry of the online list: a chat socket's user */
export interface OnlineChat {
  sid: string;
  name: string;
}

/** a message pushed to a websocket client */
export interface SocketMessage {
  msgType: string;
  msg: string;
  id: number;
  formUser: string;
  formName: string;
  chats: OnlineChat[];
  createTime: string;
  code: number;
  url: string;
  fileName: string;
}
