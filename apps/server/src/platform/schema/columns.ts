/** Unix milliseconds as stored: a `bigint` column. */
export type Millis = bigint;
