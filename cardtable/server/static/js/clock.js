// The table page's one clock: which step of the game is on screen, and what the page may do at it.
//
// The page (table.js) keeps its state in one object with these fields, read and changed here:
//   view           the step on screen: hand, board, prompt, controls and turn marker are all drawn from it
//   latest         the newest view received (presence, who is connected and whom the computer plays for,
//                  is a fact of now and comes from it; the game itself never does)
//   queue          views received and not yet shown, oldest first
//   interlude      {kind: "trick" | "summary"} on screen now, or null
//   afterSteps     the view to show once the interludes are over (a summary holds back the next deal)
//   pendingVersion the version an action was sent on, until the server answers (a newer view or a refusal)
//   guarded        true for REPEAT_GUARD_MS after an action was sent
//
// Phases (phase()):
//   "live"      the step on screen is the newest: controls are offered if it is this seat's decision
//   "catching"  views wait in the queue and are shown one by one, a move gap apart
//   "trick"     a complete trick is held in the middle (the board behind it is the step after the trick)
//   "summary"   a round's summary is up (the board behind it is the round as it ended)
// and across them "pending": an action is on its way, so nothing is offered or sent until the answer.
//
// One move per click: a control remembers the version it was drawn for, and take() accepts it only when
// that is the step on screen, the newest one, this seat's decision, no trick is held over it, nothing is on its
// way and the last move was not a moment ago.

/** How long a round summary waits for a player's Continue before it goes on by itself. */
export const SUMMARY_WAIT_MS = 30000;

/** The phase of the page: "live", "catching", "trick" or "summary". */
export function phase(p) {
  if (p.interlude) return p.interlude.kind === "summary" ? "summary" : "trick";
  return p.queue.length || p.afterSteps ? "catching" : "live";
}

/** Whether the step on screen is the newest the page has (a held trick may still be on it). */
export function caughtUp(p) {
  if (!p.view || !p.latest || p.queue.length || p.afterSteps) return false;
  if (p.interlude && p.interlude.kind === "summary") return false;
  return p.view.version === p.latest.version;
}

/** How long after a move nothing is offered, even if the next decision comes at once (a trick this seat ends
 * and wins, say): a second tap meant for the move never plays the next one. */
export const REPEAT_GUARD_MS = 350;

/** Whether the step on screen is this seat's decision and the page may send an action on it now. A held trick
 * is seen whole first (a click on the table ends it), and nothing is offered just after a move (guarded). */
export function mayAct(p) {
  return caughtUp(p) && !p.interlude && !p.guarded && p.pendingVersion === null && p.view.status === "playing"
    && p.view.legal_actions.length > 0;
}

/** How the seat's controls are drawn: "enabled" (may act now), "disabled" (the step on screen is the seat's
 * decision, but an action is on its way or newer steps are still to be shown) or "none". */
export function controls(p) {
  if (!p.view || p.view.status !== "playing" || !p.view.legal_actions.length) return "none";
  if (p.interlude && p.interlude.kind === "summary") return "none";
  return mayAct(p) ? "enabled" : "disabled";
}

/** A click on a control drawn for `version`: true (and the action is on its way) if it may be sent now. */
export function take(p, version) {
  if (!mayAct(p) || version !== p.view.version) return false;
  p.pendingVersion = version;
  return true;
}

/** A view arrived: it becomes the newest; it answers a sent action if it is newer than the version the action
 * was sent on, or if the seat is no longer to act. Returns whether it answered one. */
export function receive(p, view) {
  p.latest = view;
  if (p.pendingVersion === null) return false;
  if (view.version > p.pendingVersion || view.to_act !== view.seat) {
    p.pendingVersion = null;
    return true;
  }
  return false;
}

/** A view that restates the newest step the page holds (the same version and seat, no events: only presence
 * or a setting changed) takes that step's place instead of waiting behind it, so the controls drawn for the
 * step stay offered (a held trick or a queue being shown would otherwise disable them for a while, and a click
 * then would be lost). Returns whether it did. */
export function restate(p, view) {
  if ((view.events || []).length) return false;
  const q = p.queue;
  const held = q.length ? q[q.length - 1] : p.afterSteps || p.view;
  if (!held || held.version !== view.version || held.seat !== view.seat) return false;
  if (q.length) q[q.length - 1] = view;
  else if (p.afterSteps) p.afterSteps = view;
  else p.view = view;
  return true;
}

/** The server refused the action on its way: the seat may choose again. */
export function refused(p) {
  p.pendingVersion = null;
}

/** Whether an event ends a step worth holding: a trick, a round or a hand. */
export function isStepEvent(event) {
  const type = event && event.type;
  return typeof type === "string" && (type === "trick_won" || type === "trick_taken" || type === "hand_dealt"
    || type === "game_won" || type.endsWith("_scored"));
}

/** How many tricks, rounds or hands the queue holds that the screen has not shown yet. */
export function behind(p) {
  let n = 0;
  for (const view of p.queue) if ((view.events || []).some((e) => isStepEvent(e && e.event))) n += 1;
  return n;
}

/** The pause between two queued moves: a third of the trick pause, at most 0.5 s. */
export function moveGap(paceMs) {
  return Math.min(500, Math.round(paceMs / 3));
}

/** How long a watcher's summary stays up when the page keeps pace: four trick pauses, 3 to 8 s. */
export function watchSummaryMs(paceMs) {
  return Math.max(3000, Math.min(8000, 4 * paceMs));
}

/** How long an interlude stays on screen. A page that has a later trick or round waiting holds it only a
 * move gap (it catches up); a watcher's summary goes on by itself; a player's waits for Continue. */
export function interludeWait(p, step, { paceMs, watcher }) {
  if (behind(p) > 0 && (step.kind === "trick" || watcher)) return moveGap(paceMs);
  if (step.kind === "trick") return paceMs;
  return watcher ? watchSummaryMs(paceMs) : SUMMARY_WAIT_MS;
}

/** The step on screen with the presence of now: who sits and is connected, whom the computer plays for. */
export function onScreen(p) {
  const view = p.view;
  const now = p.latest;
  if (!view || !now || now === view || now.seat !== view.seat) return view;
  return { ...view, seats: now.seats, computer_playing_for: now.computer_playing_for };
}
