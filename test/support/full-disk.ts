/**
 * A real full disk for a test: a small tmpfs mounted on a fresh directory and filled to the last block
 * (or made with almost no inodes), so writes fail with the kernel's own `ENOSPC`. Mounting needs root
 * (CI runs as root); {@link canMountTmpfs} tells a test whether to run.
 */
import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir } from "./temp-dir.ts";

/** Whether this process can mount a tmpfs (root, and a kernel that allows it here). */
export function canMountTmpfs(): boolean {
	if (process.getuid?.() !== 0) return false;
	try {
		const disk = mountFullDisk({ fill: false });
		disk.unmount();
		return true;
	} catch {
		return false;
	}
}

export interface FullDisk {
	/** The mount point (mode 0700, owned by this user). */
	dir: string;
	/** Fills every free block left (after the test put what it needs there). */
	fill(): void;
	/** Unmounts and removes the mount point. */
	unmount(): void;
}

/**
 * Mounts a 256 KiB tmpfs (`nr_inodes` inodes when given) and, unless `fill: false`, fills it at once.
 * @throws Error from `mount` when it cannot be mounted.
 */
export function mountFullDisk(options: { fill?: boolean; inodes?: number } = {}): FullDisk {
	const dir = makeTempDir("full-disk-");
	const inodes = options.inodes === undefined ? "" : `,nr_inodes=${options.inodes}`;
	try {
		execFileSync("mount", ["-t", "tmpfs", "-o", `size=256k,mode=0700${inodes}`, "tmpfs", dir], { stdio: "pipe" });
	} catch (error) {
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}
	const disk: FullDisk = {
		dir,
		fill() {
			try {
				writeFileSync(join(dir, ".filler"), Buffer.alloc(1024 * 1024));
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
			}
		},
		unmount() {
			execFileSync("umount", [dir], { stdio: "pipe" });
			rmSync(dir, { recursive: true, force: true });
		},
	};
	if (options.fill !== false) disk.fill();
	return disk;
}
