// Work on many sockets at once, a batch per turn of the event loop. Thousands of sockets reach a deadline together
// (the identify deadline, the close handshake's): closing or destroying them costs tens of microseconds each (a
// syscall apiece), so done in one go they stall every request that arrives meanwhile (measured: 10,000 overdue
// close handshakes destroyed by their timers in one timers phase held the loop 226 ms). Handshakes come in floods
// too: each costs about 100 microseconds (ws's upgrade, the 101 and HELLO written), and a poll phase that completed
// every upgrade it read kept the API's requests waiting 10 ms and more. Between two batches the loop polls, so
// requests get in.

export { nextTurn } from "@/lib/server/next-turn";
export { TurnQueue } from "@/lib/server/turn-queue";

/** Items per turn: 64 socket closes take one to two milliseconds. */
export const TURN_BATCH = 64;
