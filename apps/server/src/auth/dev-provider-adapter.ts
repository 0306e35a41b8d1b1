import type {
  AdapterPayload,
  ProviderAdapter,
  ProviderAdapterConstructor,
} from './dev-provider-types.js';

interface Entry {
  payload: AdapterPayload;
  /** Epoch milliseconds after which the entry is gone. */
  expiresAt: number;
}

/** Every this many writes, expired entries are swept so that the map cannot grow without bound. */
const SWEEP_EVERY_WRITES = 200;

/**
 * In-memory storage for the development provider (sessions, interactions, codes, grants).
 *
 * Our own, rather than oidc-provider's built-in one, for two reasons: each provider instance gets
 * its own store (tests start several servers in one process), and the built-in one prints a
 * "development-only" warning on every start, which is expected here. Everything is lost on
 * restart: a sign-in that was half-way through simply starts again. Signed tokens stay valid
 * because the signing key is derived from the server secret (dev-provider-keys.ts).
 */
export function createMemoryAdapter(now: () => number = Date.now): ProviderAdapterConstructor {
  const entries = new Map<string, Entry>();
  /** Secondary indexes: grantId -> keys, session uid -> key, user code -> key. */
  const byGrant = new Map<string, Set<string>>();
  const byUid = new Map<string, string>();
  const byUserCode = new Map<string, string>();
  let writes = 0;

  const live = (key: string | undefined): AdapterPayload | undefined => {
    if (key === undefined) return undefined;
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry.payload;
  };

  const sweep = () => {
    const t = now();
    for (const [key, entry] of entries) if (entry.expiresAt <= t) entries.delete(key);
    for (const [uid, key] of byUid) if (!entries.has(key)) byUid.delete(uid);
    for (const [code, key] of byUserCode) if (!entries.has(key)) byUserCode.delete(code);
    for (const [grantId, keys] of byGrant) {
      for (const key of keys) if (!entries.has(key)) keys.delete(key);
      if (keys.size === 0) byGrant.delete(grantId);
    }
  };

  return class MemoryAdapter implements ProviderAdapter {
    constructor(private readonly model: string) {}

    private key(id: string): string {
      return `${this.model}:${id}`;
    }

    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      const key = this.key(id);
      entries.set(key, { payload, expiresAt: now() + expiresIn * 1000 });
      if (payload.grantId !== undefined) {
        const keys = byGrant.get(payload.grantId) ?? new Set<string>();
        keys.add(key);
        byGrant.set(payload.grantId, keys);
      }
      if (payload.uid !== undefined) byUid.set(`${this.model}:${payload.uid}`, key);
      if (payload.userCode !== undefined) byUserCode.set(`${this.model}:${payload.userCode}`, key);
      if (++writes % SWEEP_EVERY_WRITES === 0) sweep();
      return Promise.resolve();
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      return Promise.resolve(live(this.key(id)));
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return Promise.resolve(live(byUid.get(`${this.model}:${uid}`)));
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return Promise.resolve(live(byUserCode.get(`${this.model}:${userCode}`)));
    }

    consume(id: string): Promise<void> {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(now() / 1000);
      return Promise.resolve();
    }

    destroy(id: string): Promise<void> {
      entries.delete(this.key(id));
      return Promise.resolve();
    }

    revokeByGrantId(grantId: string): Promise<void> {
      for (const key of byGrant.get(grantId) ?? []) entries.delete(key);
      byGrant.delete(grantId);
      return Promise.resolve();
    }
  };
}
