/*
 * The explorer benchmark's HPA configuration (bench/scenarios/hpa-bench-medium.yaml), written by
 * hand in Promela for SPIN, for the time-to-verdict comparison in bench/spin.ts.
 * Modelled: the fixed policy (min 1, max 3, threshold 50%, one step a period, Starting counts,
 * oldest deleted first, leftovers removed, delete waits for stop), a sequential controller (one
 * API operation at a time), backoff after a failed call, a controller restart (its operation is
 * abandoned; it observes again), the neighbour podman-cache (unowned), and the environment's
 * moves, each at most once, at any instant: demand 2.5 GB, kill pod-a, fail the next API call
 * (twice), controller restart, demand 100 MB, the API 10x slower for 30 s (no effect on an untimed
 * model); with -DMID_DEMAND (hpa-bench-1e6.yaml) also demand 1.5 GB. A restart is a request the controller takes before its next API call. Not modelled: virtual time (periods, latencies, backoff delays are interleavings here),
 * so SPIN's state space over-approximates loopscope's timed one; the claims are the three
 * invariants, checked as assertions, and both tools must find them holding.
 */
#define MAXPODS 3
#define MINPODS 1
#define SLOTS 4           /* pod-a + up to 3 created (a deleted slot is reused) */
#define NONE 0
#define STARTING 1
#define RUNNING 2
#define STOPPING 3
#define STOPPED 4

byte status[SLOTS];       /* owned pods; slot 0 is pod-a */
byte age[SLOTS];          /* creation order, for "oldest first" */
byte nextAge = 1;
byte demand = 3;          /* in 100 MB: 300 MB */
bool failNext = 0;
byte unownedTouched = 0;
byte inFlight = 0;        /* API operations in flight */
bool creating = 0;
bool restartReq = 0;  /* a controller restart: its operation is abandoned, it observes again */

inline countActive(c, s) {
  c = 0; s = 0; i = 0;
  do
  :: i < SLOTS -> if :: status[i] == STARTING || status[i] == RUNNING -> c++ :: else -> skip fi;
                  if :: status[i] == STARTING -> s++ :: else -> skip fi; i++
  :: else -> break
  od
}

inline apiCall(ok) {
  if :: restartReq -> restartReq = 0; inFlight = 0; creating = 0; goto observe :: else -> skip fi;
  inFlight++;
  assert(inFlight <= 1);  /* one-operation-at-a-time */
  if :: failNext -> failNext = 0; ok = 0 :: else -> ok = 1 fi
}

proctype controller() {
  byte c, s, r, i, avg, victim, slot;
  bool ok;
observe:
  /* list instances */
  apiCall(ok); inFlight--;
  if :: !ok -> goto backoff :: else -> skip fi;
  /* leftovers first: delete owned Stopped pods */
  i = 0;
  do
  :: i < SLOTS && status[i] == STOPPED -> apiCall(ok); inFlight--; if :: ok -> status[i] = NONE :: else -> goto backoff fi; i++
  :: i < SLOTS && status[i] != STOPPED -> i++
  :: else -> break
  od;
  countActive(c, s);
  r = 0; i = 0;
  do :: i < SLOTS -> if :: status[i] == RUNNING -> r++ :: else -> skip fi; i++ :: else -> break od;
  if
  :: r == 0 -> avg = 255
  :: else -> avg = (50 + demand * 100 / r) / 10
  fi;
  if
  :: c < MINPODS || (avg != 255 && avg >= 50 && c < MAXPODS && s == 0) ->
       /* create + start one pod */
       slot = 0;
       do :: slot < SLOTS && status[slot] != NONE -> slot++ :: else -> break od;
       if
       :: slot < SLOTS ->
            creating = 1;
            apiCall(ok);
            if
            :: ok -> status[slot] = STARTING; age[slot] = nextAge; nextAge = (nextAge % 250) + 1;
                     c = 0; i = 0;
                     do :: i < SLOTS -> if :: status[i] == STARTING || status[i] == RUNNING -> c++ :: else -> skip fi; i++ :: else -> break od;
                     assert(c <= MAXPODS)   /* at-most-max */
            :: else -> skip
            fi;
            inFlight--; creating = 0;
            if :: !ok -> goto backoff :: else -> skip fi;
            apiCall(ok); inFlight--;
            if :: ok && status[slot] == STARTING -> status[slot] = RUNNING :: else -> skip fi;
            if :: !ok -> goto backoff :: else -> skip fi
       :: else -> skip
       fi
  :: c > MAXPODS || (avg != 255 && avg < 25 && c > MINPODS && s == 0) ->
       /* stop, then delete, the oldest active pod */
       victim = SLOTS; i = 0;
       do
       :: i < SLOTS -> if :: (status[i] == STARTING || status[i] == RUNNING) && (victim == SLOTS || age[i] < age[victim]) -> victim = i :: else -> skip fi; i++
       :: else -> break
       od;
       apiCall(ok); if :: ok -> status[victim] = STOPPED :: else -> skip fi; inFlight--;
       if :: !ok -> goto backoff :: else -> skip fi;
       apiCall(ok); if :: ok -> status[victim] = NONE :: else -> skip fi; inFlight--;
       if :: !ok -> goto backoff :: else -> skip fi
  :: else -> skip
  fi;
  goto observe;
backoff:
  goto observe
}

/* The environment: each move at most once, at any instant, in any order, or never. */
proctype environment() {
  bool up = 0, kill = 0, fail1 = 0, fail2 = 0, restart = 0, down = 0, slow = 0, mid = 0;
  do
  :: !up -> up = 1; demand = 25
  :: !kill -> kill = 1; if :: status[0] == RUNNING || status[0] == STARTING -> status[0] = STOPPED :: else -> skip fi
  :: !fail1 -> fail1 = 1; failNext = 1
  :: !fail2 -> fail2 = 1; failNext = 1
  :: !slow -> slow = 1
  :: !down -> down = 1; demand = 1
  :: !restart -> restart = 1; restartReq = 1
#ifdef MID_DEMAND
  :: !mid -> mid = 1; demand = 15   /* hpa-bench-1e6.yaml's eighth move: demand 1500 MB */
#endif
  :: else -> break
  od;
  assert(unownedTouched == 0)  /* never-touches-unowned: no step ever stops or deletes podman-cache */
}

init { atomic { status[0] = RUNNING; age[0] = 0; run controller(); run environment() } }
