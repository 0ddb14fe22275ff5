import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTempDb } from "../temp";
import { ensureCourse, getCourseWithRole } from "./courses";
import { addMembership, createUser } from "./users";

let db: Awaited<ReturnType<typeof openTempDb>>;
let teacher: string;
let outsider: string;
beforeAll(async () => {
  db = await openTempDb();
  teacher = (await createUser(db.db, { email: "glaze@example.test", name: "Glaze Teacher", passwordHash: "x" })).id;
  outsider = (await createUser(db.db, { email: "kiln@example.test", name: "Kiln Visitor", passwordHash: "x" })).id;
});
afterAll(() => db.dispose());

describe("getCourseWithRole", () => {
  it("finds a course by slug or by id, with the user's role", async () => {
    const course = await ensureCourse(db.db, { slug: "ceramics-101" });
    await addMembership(db.db, { userId: teacher, courseId: course.id, role: "instructor" });
    expect(await getCourseWithRole(db.db, { courseParam: "ceramics-101", userId: teacher })).toEqual({ course, role: "instructor" });
    expect(await getCourseWithRole(db.db, { courseParam: course.id, userId: teacher })).toEqual({ course, role: "instructor" });
  });

  it("gives a non-member the course with no role, and nothing for a course that does not exist", async () => {
    const found = await getCourseWithRole(db.db, { courseParam: "ceramics-101", userId: outsider });
    expect(found?.course.slug).toBe("ceramics-101");
    expect(found?.role).toBeNull();
    expect(await getCourseWithRole(db.db, { courseParam: "no-such-course", userId: teacher })).toBeUndefined();
  });

  it("prefers the course whose slug matches over one whose id does", async () => {
    const target = await ensureCourse(db.db, { slug: "wheel-throwing" });
    const lookalike = await ensureCourse(db.db, { slug: target.id });
    await addMembership(db.db, { userId: outsider, courseId: target.id, role: "student" });
    const found = await getCourseWithRole(db.db, { courseParam: target.id, userId: outsider });
    expect(found?.course.id).toBe(lookalike.id);
    expect(found?.role).toBeNull();
  });
});
