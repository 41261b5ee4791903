// The provider simulator (test/simulator): the only stand-in for upstream providers (DEVELOPERS.md).
export { startSimulator, type Simulator } from '../../../test/simulator/server';
