export { createGatewayService } from './gateway.service.ts';
export { loadWsEngine } from './realtime/ws-engine.ts';
