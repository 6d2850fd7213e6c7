/* Where the open table stands in its round (from its assignment row, GET assignments/). */

/** The hands the table may still start this round: hands_allowed (the round's and those a
 * director added) less hands_played (a voided hand does not count, the live one does);
 * null when the row does not say (a table kept from an older console). */
export function handsLeft(table) {
  if (!table || typeof table.hands_allowed !== "number" || typeof table.hands_played !== "number") return null;
  return Math.max(0, table.hands_allowed - table.hands_played);
}
