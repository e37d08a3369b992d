/**
 * Password encryption for sign-in: RSA-OAEP with SHA-256 under the server's public key
 * (base64 SPKI DER), answer in base64. WebCrypto does it where available; on plain-HTTP
 * LAN pages `crypto.subtle` is missing and node-forge (loaded only then) takes over.
 */

export function base64ToBytes(b64: string): Uint8Array {
  const binary = atob(b64.replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
}

/** Accepts a bare base64 key or a PEM block. */
function derOf(publicKey: string): Uint8Array {
  return base64ToBytes(publicKey.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, ''));
}

export async function encryptPassword(
  plain: string,
  publicKey: string,
  subtle: SubtleCrypto | undefined = globalThis.crypto?.subtle,
): Promise<string> {
  const der = derOf(publicKey);
  if (subtle) {
    const key = await subtle.importKey('spki', der as BufferSource, { name: 'RSA-OAEP', hash: 'SHA-256' }, false, ['encrypt']);
    const cipher = await subtle.encrypt({ name: 'RSA-OAEP' }, key, new TextEncoder().encode(plain));
    return bytesToBase64(new Uint8Array(cipher));
  }
  const forgeModule = await import('node-forge');
  const forge = (forgeModule as unknown as { default?: typeof forgeModule }).default ?? forgeModule;
  let binary = '';
  for (let i = 0; i < der.length; i++) binary += String.fromCharCode(der[i]);
  const key = forge.pki.publicKeyFromAsn1(forge.asn1.fromDer(forge.util.createBuffer(binary)));
  const cipher = key.encrypt(forge.util.encodeUtf8(plain), 'RSA-OAEP', {
    md: forge.md.sha256.create(),
    mgf1: { md: forge.md.sha256.create() },
  });
  return forge.util.encode64(cipher);
}
