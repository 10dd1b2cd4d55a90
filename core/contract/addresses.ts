// Where a listener of the gateway is bound (ctx.listening.list() gives them to plugins).

/** A stream listener: TCP, or a unix socket. */
export type SocketAddress = { kind: 'tcp'; host: string; port: number } | { kind: 'unix'; path: string };

export type ListeningAddress = SocketAddress | { readonly kind: 'http'; readonly host: string; readonly port: number };
