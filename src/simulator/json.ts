/** JSON value shapes shared by the simulator's state and its request pipeline. */

/** A JSON object. */
export type JsonObject = Record<string, unknown>;
