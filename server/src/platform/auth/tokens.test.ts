import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { TokenSigner } from './tokens.ts';

const SECRET = 'unit-test-secret-unit-test-secret-0123';
const signer = new TokenSigner(SECRET);
const key = new TextEncoder().encode(SECRET);

describe('TokenSigner', () => {
  it('round-trips its own tokens', async () => {
    const token = await signer.sign({ sub: 'u1', sid: 's1' }, new Date(Date.now() + 60_000));
    expect(await signer.verify(token)).toEqual({ sub: 'u1', sid: 's1' });
  });

  it('refuses expired tokens, tokens without exp, other algorithms, other keys and tampering', async () => {
    const expired = await signer.sign({ sub: 'u1', sid: 's1' }, new Date(Date.now() - 1000));
    const noExp = await new SignJWT({ sid: 's1' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('u1')
      .sign(key);
    const hs512 = await new SignJWT({ sid: 's1' })
      .setProtectedHeader({ alg: 'HS512' })
      .setSubject('u1')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(SECRET.repeat(2)));
    const otherKey = await new TokenSigner(`${SECRET}-other`).sign(
      { sub: 'u1', sid: 's1' },
      new Date(Date.now() + 60_000),
    );
    const good = await signer.sign({ sub: 'u1', sid: 's1' }, new Date(Date.now() + 60_000));
    const [h, p, s] = good.split('.');
    const forgedPayload = Buffer.from(JSON.stringify({ sub: 'admin', sid: 's1', exp: 9999999999 })).toString(
      'base64url',
    );
    const none = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;
    for (const t of [expired, noExp, hs512, otherKey, `${h}.${forgedPayload}.${s}`, none, 'a.b', '']) {
      expect(await signer.verify(t)).toBeNull();
    }
  });

  it('a token verified once is still refused once it expires', async () => {
    const expiresAt = new Date(Date.now() + 60_000);
    const token = await signer.sign({ sub: 'u2', sid: 's2' }, expiresAt);
    const now = Date.now() / 1000;
    expect(signer.verifySync(token, now)).toEqual({ sub: 'u2', sid: 's2' });
    expect(signer.verifySync(token, now + 1)).toEqual({ sub: 'u2', sid: 's2' });
    expect(signer.verifySync(token, expiresAt.getTime() / 1000 + 1)).toBeNull();
  });
});
