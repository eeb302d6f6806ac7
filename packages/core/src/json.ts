/** A JSON value: what durable protocol state is made of (numbers finite; no `undefined`). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };
