export { createGatewayService } from './gateway.service.ts';
