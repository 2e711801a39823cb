import { createHmac, timingSafeEqual } from 'node:crypto';
import { SignJWT } from 'jose';

export interface TokenClaims {
  sub: string;
  sid: string;
}

const EXPECTED_HEADER_ALG = 'HS256';
/** Verified tokens remembered (their signature is not checked again; their times are). */
const VERIFIED_CACHE_SIZE = 10_000;

interface Verified extends TokenClaims {
  exp: number;
  nbf: number | null;
}

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
  private readonly verified = new Map<string, Verified>();

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
    // A token's signature and claims never change, so one that verified once is only timed again.
    const known = this.verified.get(token);
    if (known) {
      if (known.exp <= nowSeconds || (known.nbf !== null && known.nbf > nowSeconds)) return null;
      return { sub: known.sub, sid: known.sid };
    }
    const claims = this.verifyFully(token, nowSeconds);
    if (claims) {
      if (this.verified.size >= VERIFIED_CACHE_SIZE) {
        this.verified.delete(this.verified.keys().next().value as string);
      }
      this.verified.set(token, claims);
      return { sub: claims.sub, sid: claims.sid };
    }
    return null;
  }

  private verifyFully(token: string, nowSeconds: number): Verified | null {
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
      const nbf = typeof payload.nbf === 'number' ? payload.nbf : null;
      return { sub: payload.sub, sid: payload.sid, exp: payload.exp, nbf };
    } catch {
      return null;
    }
  }
}
