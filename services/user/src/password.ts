import argon2 from 'argon2';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  /** False for a wrong password or a malformed hash. */
  verify(hash: string, password: string): Promise<boolean>;
  /** Verifying against this when the user does not exist keeps both answers equally slow. */
  dummyHash(): Promise<string>;
}

/**
 * argon2id with 2 passes and 1 lane. At the OWASP baseline memory cost
 * (19 MiB, the default) a hash takes about 20 ms here: slow for an attacker,
 * cheap enough for logins. The cost is stored in each hash, so changing it
 * never locks anyone out.
 */
export function createPasswordHasher(memoryKib: number): PasswordHasher {
  const options = { type: argon2.argon2id, memoryCost: memoryKib, timeCost: 2, parallelism: 1 } as const;
  const hash = (password: string) => argon2.hash(password, options);
  let dummy: Promise<string> | undefined;
  return {
    hash,
    async verify(stored, password) {
      try {
        return await argon2.verify(stored, password);
      } catch {
        return false;
      }
    },
    dummyHash: () => (dummy ??= hash('not-a-real-password')),
  };
}
