import type enUS from './en-US/index'

/** The English tables define the keys; every other locale must have exactly the same shape. */
export type MessageShape<T> = { [K in keyof T]: T[K] extends string ? string : MessageShape<T[K]> }

export type Messages = MessageShape<typeof enUS>
