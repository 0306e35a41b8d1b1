import { sessionIdFor, type SessionsRepository } from './sessions.repository.js';

/** How long a session found live keeps its own rate budget without being read again. */
const KNOWN_LIVE_MS = 60_000;
/** Sessions remembered at most; past it the memory starts empty again. */
const MAX_KNOWN = 20_000;

/**
 * Which sign-in calls get a rate budget of their own (issue 38 row 10): one carrying the cookie
 * of a live session, keyed by the session's id. A made-up cookie is not a session: such calls
 * share their address's budget, so inventing cookies buys no extra calls. A live session is read
 * once a minute at most (token renewals read it anyway).
 */
export class LiveSessionBudgets {
  private readonly known = new Map<string, number>();

  constructor(private readonly sessions: SessionsRepository) {}

  /** The session id behind `cookie` when it is a live session, else null. */
  async liveSession(cookie: string, now = Date.now()): Promise<string | null> {
    const sid = sessionIdFor(cookie);
    const until = this.known.get(sid);
    if (until !== undefined && until > now) return sid;
    let live: boolean;
    try {
      live = (await this.sessions.findLive(sid, new Date(now))) !== null;
    } catch {
      // The database is away: the address's budget, and the call itself answers the outage.
      return null;
    }
    if (!live) {
      this.known.delete(sid);
      return null;
    }
    if (this.known.size >= MAX_KNOWN) this.known.clear();
    this.known.set(sid, now + KNOWN_LIVE_MS);
    return sid;
  }
}
