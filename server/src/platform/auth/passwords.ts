import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's OWASP-recommended defaults (m=19 MiB, t=2, p=1).
export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(hashed: string, password: string): Promise<boolean> {
  try {
    return await verify(hashed, password);
  } catch {
    return false;
  }
}

/** A fixed hash to verify against when the account does not exist, so timing does not reveal it. */
let dummyHash: Promise<string> | undefined;
export function dummyVerify(password: string): Promise<boolean> {
  dummyHash ??= hash('not-a-real-password-0000');
  return dummyHash.then((h) => verifyPassword(h, password)).then(() => false);
}
