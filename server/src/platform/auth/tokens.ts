import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

export interface TokenClaims {
  sub: string;
  sid: string;
}

const EXPECTED_HEADER_ALG = 'HS256';

/**
 * HS256 access tokens, each naming a `sessions` row (sid) so it can be revoked. Signing uses jose;
 * verification is done synchronously with node:crypto because it runs on every request and jose's
 * WebCrypto path costs a thread-pool round trip each time (measured: the largest share of an
 * authenticated request). The algorithm is pinned, the signature compared in constant time, and `exp`
 * is required.
 */
export class TokenSigner {
  private readonly key: Uint8Array;
  private readonly secret: Buffer;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
    this.secret = Buffer.from(secret, 'utf8');
  }

  sign(claims: TokenClaims, expiresAt: Date): Promise<string> {
    return new SignJWT({ sid: claims.sid })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims.sub)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
  }

  /** Returns null for any invalid, expired or foreign token. */
  async verify(token: string): Promise<TokenClaims | null> {
    return this.verifySync(token);
  }

  verifySync(token: string, nowSeconds = Date.now() / 1000): TokenClaims | null {
    const parts = token.split('.');
    if (parts.length !== 3 || token.length > 4096) return null;
    const [h, p, s] = parts;
    try {
      const header = JSON.parse(Buffer.from(h, 'base64url').toString('utf8'));
      if (!header || header.alg !== EXPECTED_HEADER_ALG || header.crit !== undefined) return null;
      const expected = createHmac('sha256', this.secret).update(`${h}.${p}`).digest();
      const given = Buffer.from(s, 'base64url');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
      const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8'));
      if (typeof payload?.exp !== 'number' || payload.exp <= nowSeconds) return null;
      if (typeof payload.nbf === 'number' && payload.nbf > nowSeconds) return null;
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') return null;
      return { sub: payload.sub, sid: payload.sid };
    } catch {
      return null;
    }
  }
}
