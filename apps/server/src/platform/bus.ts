import { EventEmitter } from 'node:events';

/**
 * Publish/subscribe between components. In one process it is an EventEmitter; at scale the same
 * port is backed by NATS JetStream subjects.
 */
export interface Bus {
  publish<T>(subject: string, message: T): void;
  subscribe<T>(subject: string, handler: (message: T) => void): () => void;
}

export class MemoryBus implements Bus {
  private readonly emitter = new EventEmitter();

  constructor() {
    this.emitter.setMaxListeners(0);
  }

  publish<T>(subject: string, message: T): void {
    this.emitter.emit(subject, message);
  }

  subscribe<T>(subject: string, handler: (message: T) => void): () => void {
    this.emitter.on(subject, handler);
    return () => this.emitter.off(subject, handler);
  }
}
