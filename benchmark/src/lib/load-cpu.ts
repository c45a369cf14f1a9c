/**
 * The load generator's own CPU: this process plus its client processes,
 * as a share of one core and of the machine, over the run's wall time.
 */
export class LoadCpu {
  private readonly startedAt = performance.now();
  private readonly start = process.cpuUsage();
  private childMicros = 0;
  private processes = 1;

  /** Adds client processes' total CPU (user + system, microseconds). */
  addChildren(micros: number, processes: number): void {
    this.childMicros += micros;
    this.processes += processes;
  }

  report(cores: number) {
    const own = process.cpuUsage(this.start);
    const cpuMs = (own.user + own.system + this.childMicros) / 1000;
    const wallMs = performance.now() - this.startedAt;
    const ofOneCore = cpuMs / wallMs;
    return {
      processes: this.processes,
      cpuSeconds: Math.round(cpuMs / 100) / 10,
      shareOfOneCore: Math.round(ofOneCore * 100) / 100,
      shareOfMachine: Math.round((ofOneCore / cores) * 100) / 100,
    };
  }
}
